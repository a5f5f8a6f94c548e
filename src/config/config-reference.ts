/**
 * The configuration reference in Markdown, generated from the option table: one table per group
 * with flag, environment variable, type, default and description. `npm run docs:config` writes it
 * to docs/configuration.md and a test fails when the checked-in file differs.
 */
import type { OptionTable } from './option-spec.ts';
import { defaultText } from './commander-options.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The whole document. */
export function configurationReference(table: OptionTable, title: string, intro: string): string {
  const groups = new Map<string, string[]>();
  for (const spec of Object.values(table)) {
    const dflt = defaultText(spec);
    const flag = spec.type.isSwitch ? `\`--${spec.flag}\` / \`--no-${spec.flag}\`` : `\`--${spec.flag} ${spec.type.placeholder ?? '<value>'}\``;
    const row = `| ${cell(flag)} | \`${spec.env}\` | ${cell(spec.type.name)} | ${dflt === undefined ? '' : `\`${cell(dflt)}\``} | ${cell(spec.description)} |`;
    groups.set(spec.group, [...(groups.get(spec.group) ?? []), row]);
  }
  const sections = [...groups].map(([group, rows]) =>
    [`## ${group}`, '', '| flag | environment | type | default | description |', '|---|---|---|---|---|', ...rows, ''].join('\n'),
  );
  return [`# ${title}`, '', intro, '', ...sections].join('\n');
}
