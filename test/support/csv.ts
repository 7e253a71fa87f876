/**
 * A strict RFC 4180 parser for tests: records end with CRLF (the last may
 * omit it), fields are separated by commas, a quoted field may hold commas,
 * CR, LF and doubled quotes. Anything else (a bare quote inside an unquoted
 * field, text after a closing quote, a lone LF ending a record) throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const n = text.length;
  if (n === 0) return records;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted field');
        const ch = text[i];
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += ch;
        i += 1;
      }
    } else {
      while (i < n && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote in an unquoted field at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (i >= n) {
      records.push(record);
      return records;
    }
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      records.push(record);
      record = [];
      i += 2;
      if (i >= n) return records;
      continue;
    }
    throw new Error(`expected a comma or CRLF at ${i}`);
  }
}

/**
 * Reads a field back as the README documents it, independently of the renderer:
 * the export's formula guard is undone by stripping one leading apostrophe.
 */
export function unescapeCsvText(field: string): string {
  return field.startsWith("'") ? field.slice(1) : field;
}
