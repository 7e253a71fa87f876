import type { ComposedVariable } from './compose';

/**
 * The files rendered from the settings slices: `.env.example` (every variable, by slice) and the
 * variable tables of docs/configuration.md (the prose around them is the doc's own).
 */

/** The slices composed (src/config.ts's `SETTINGS`). */
interface Composition {
  readonly slices: readonly { readonly name: string; readonly title: string }[];
  readonly variables: readonly ComposedVariable[];
}

const ENV_HEADER = [
  '# Every variable the server reads (src/config.ts validates them at start), by the part that reads it.',
  '# None is needed for `npm start`: unset secrets fall back to development values with a warning, and',
  '# NODE_ENV=production refuses to start with those. docs/configuration.md describes each.',
  '# Generated from the settings slices (*.settings.ts) by `npm run codegen`: do not edit.',
];
const WIDTH = 100;

/** Markdown as plain text: code spans unquoted, links as their text. */
function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/`([^`]*)`/g, '$1');
}

/** `text` as `# ` comment lines of at most {@link WIDTH} characters (a longer word stays whole). */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

/** `.env.example`: each slice's variables under its title, each commented out with its meaning. */
export function renderEnvExample(composition: Composition): string {
  const out = [...ENV_HEADER];
  for (const slice of composition.slices) {
    const own = composition.variables.filter((v) => v.slice.name === slice.name);
    if (own.length === 0) continue;
    out.push('', `# ---- ${slice.title} ----`);
    for (const v of own) {
      const { meaning, default: fallback, accepted, example } = v.doc;
      const facts = [fallback && `default: ${fallback}`, accepted && `accepts: ${accepted}`].filter(Boolean);
      out.push(...comment(`${plain(meaning)}${facts.length > 0 ? ` (${plain(facts.join('; '))})` : ''}`));
      out.push(`# ${v.name}=${example}`);
    }
  }
  return `${out.join('\n')}\n`;
}

const cell = (markdown: string): string => markdown.replace(/\|/g, '\\|');

/** The table of some slices' variables, as docs/configuration.md shows it. */
function table(variables: readonly ComposedVariable[]): string[] {
  const rows = variables.map(({ name, doc }) => {
    const cells = [`\`${name}\``, cell(doc.default), cell(doc.accepted), cell(doc.meaning)];
    return `| ${cells.join(' | ')} |`.replace(/\| {2}\|/g, '| |');
  });
  return ['| variable | default | accepted | meaning |', '| --- | --- | --- | --- |', ...rows];
}

const MARKER = /<!-- settings: ([\w ]+) -->\n[\s\S]*?<!-- \/settings -->/g;

/**
 * docs/configuration.md with each `<!-- settings: sliceA sliceB -->` … `<!-- /settings -->` block
 * holding the table of those slices' variables. Every slice must be in exactly one block.
 */
export function renderConfigurationDoc(composition: Composition, doc: string): string {
  const placed = new Map<string, number>();
  const rendered = doc.replace(MARKER, (_block, names: string) => {
    const list = names.trim().split(/\s+/);
    for (const name of list) {
      if (!composition.slices.some((s) => s.name === name)) throw new Error(`configuration doc: no slice "${name}"`);
      placed.set(name, (placed.get(name) ?? 0) + 1);
    }
    const variables = list.flatMap((name) => composition.variables.filter((v) => v.slice.name === name));
    return [`<!-- settings: ${list.join(' ')} -->`, ...table(variables), '<!-- /settings -->'].join('\n');
  });
  for (const slice of composition.slices) {
    const count = placed.get(slice.name) ?? 0;
    if (count !== 1) throw new Error(`configuration doc: slice "${slice.name}" has ${count} tables (one expected)`);
  }
  return rendered;
}
