import { csv, csvField, escapeCsvText, toCsv, unescapeCsvText } from '../../../rest-adapter/representations';
import { parseCsv } from '../../support/csv';

describe('RFC 4180 CSV (the export representation)', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [12.5, '12.5'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['lf\nonly', '"lf\nonly"'],
    ['"', '""""'],
    // Formula-looking text is neutralised; numbers (also negative ones) are not.
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1+2', "'+1+2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['-1.500000', '-1.500000'],
    [-2, '-2'],
    ['-dash-user', "'-dash-user"],
    ['\tcell', "'\tcell"],
    ['\rcell', `"'\rcell"`],
    // An apostrophe of its own is escaped too, so stripping one always restores the value.
    ["'quoted", "''quoted"],
    ["'", "''"],
    ["it's", "it's"],
  ])('quotes %j as %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  describe('the formula guard is reversible: strip one leading apostrophe', () => {
    const values = [
      '-dash-user',
      '=eq-user',
      "'quoted",
      "''twice",
      '+1 plus',
      '@at',
      '\ttab',
      '\rcr',
      '-5',
      '+2.50',
      '-',
      "'",
      '',
      'plain',
      'csv, "odd"\r\nuser',
      "'=both",
    ];

    it.each(values)('%j', (value) => {
      expect(unescapeCsvText(escapeCsvText(value))).toBe(value);
      // …and what a spreadsheet reads never starts like a formula, unless it is a plain number.
      const escaped = escapeCsvText(value);
      expect(/^[=+\-@\t\r]/.test(escaped) && !/^[+-]?\d+(\.\d+)?$/.test(escaped)).toBe(false);
    });

    it('through the renderer and the parser', () => {
      const rows = values.map((v) => ({ v }));
      const [header, ...records] = parseCsv(csv([{ header: 'v', field: 'v' }]).render(rows));
      expect(header).toEqual(['v']);
      expect(records.map(([f]) => unescapeCsvText(f))).toEqual(values);
    });
  });

  it('writes a header record and CRLF-terminated records', () => {
    const text = toCsv(
      [
        { header: 'id', field: 'id' },
        { header: 'note', field: 'note' },
      ],
      [
        { id: '1', note: 'x' },
        { id: '2', note: null },
      ],
    );
    expect(text).toBe('id,note\r\n1,x\r\n2,\r\n');
  });

  it('parses hand-written RFC 4180 text', () => {
    expect(parseCsv('a,b\r\n"x,1","he said ""no"""\r\n"multi\r\nline",\r\n')).toEqual([
      ['a', 'b'],
      ['x,1', 'he said "no"'],
      ['multi\r\nline', ''],
    ]);
    expect(parseCsv('a,b')).toEqual([['a', 'b']]);
    expect(() => parseCsv('a"b\r\n')).toThrow(/bare quote/);
    expect(() => parseCsv('"a"b\r\n')).toThrow(/comma or CRLF/);
    expect(() => parseCsv('a\nb')).toThrow(/comma or CRLF/);
    expect(() => parseCsv('"open')).toThrow(/unterminated/);
  });

  it('round-trips awkward values through the renderer and the parser', () => {
    const rows = [
      { a: 'comma, inside', b: 'quote " inside' },
      { a: 'crlf\r\ninside', b: 'lf\ninside' },
      { a: '', b: '"' },
    ];
    const columns = [
      { header: 'a', field: 'a' },
      { header: 'b', field: 'b' },
    ];
    const text = csv(columns).render(rows);
    expect(parseCsv(text)).toEqual([['a', 'b'], ...rows.map((r) => [r.a, r.b])]);
  });

  it('refuses a result that is not a list', () => {
    expect(() => csv([{ header: 'a', field: 'a' }]).render({ a: 1 })).toThrow(/list/);
  });
});
