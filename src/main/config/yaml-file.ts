// Reads one YAML document. Unreadable files and syntax errors become issues named by the file
// (with line and column), never exceptions.
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { issue, type ConfigIssue } from '../../shared/config/config-path.js';
import { fsReason } from './fs-reason.js';

const YAML_ERRORS_SHOWN = 3;

export interface YamlRead {
  value?: unknown;
  issues: ConfigIssue[];
}

export async function readYamlFile(path: string): Promise<YamlRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { issues: [issue(path, `cannot read: ${fsReason(error)}`)] };
  }
  const document = parseDocument(text, { prettyErrors: true, merge: true });
  if (document.errors.length > 0) {
    // One syntax error usually cascades into dozens; the first few say where to look.
    const shown = document.errors.slice(0, YAML_ERRORS_SHOWN).map((error) => {
      const at = error.linePos?.[0];
      const where = at === undefined ? path : `${path}:${at.line}:${at.col}`;
      return issue(where, `invalid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
    });
    const hidden = document.errors.length - shown.length;
    if (hidden > 0) shown.push(issue(path, `${hidden} further YAML error${hidden === 1 ? '' : 's'} (probably caused by the first)`));
    return { issues: shown };
  }
  const value: unknown = document.toJS({ maxAliasCount: 100 });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { issues: [issue(path, 'expected a mapping of settings at the top level')] };
  }
  return { value, issues: [] };
}
