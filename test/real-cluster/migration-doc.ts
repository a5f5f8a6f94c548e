/**
 * What docs/migration.md tells a user to run, read from the page itself so that
 * migration-in-cluster.lane.ts runs exactly those commands and that overlay: the first `sh` block of
 * "## The switch" (upstream stopped, Tailor applied, its updater started later), the `yaml` block
 * (`my-overlay/kustomization.yaml`), the `sh` block after "Check it:", and the first `sh` block of
 * "## The switch back". A page edited out of this shape fails migration-doc.test.ts in `npm test`.
 */

/** The page's commands (one shell command per entry, comments dropped) and the overlay's text. */
export interface MigrationDoc {
  readonly switchToTailor: readonly string[];
  readonly overlay: string;
  readonly check: readonly string[];
  readonly switchBack: readonly string[];
}

/** The text between `## <title>` and the next `## ` heading. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/migration.md has no section "## ${title}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The fenced blocks of `language` in `text`, in order. */
function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/** A block's commands: blank and comment lines dropped, a trailing ` # comment` cut off. */
export function commandLines(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Reads the page (its text); throws naming what is missing. */
export function readMigrationDoc(text: string): MigrationDoc {
  const the = (what: string, found: string | undefined): string => {
    if (found === undefined) throw new Error(`docs/migration.md: no ${what}`);
    return found;
  };
  const switchSection = section(text, 'The switch');
  const checkAt = switchSection.indexOf('Check it:');
  if (checkAt < 0) throw new Error('docs/migration.md: no "Check it:" in "## The switch"');
  return {
    switchToTailor: commandLines(the('sh block in "## The switch"', blocks(switchSection, 'sh')[0])),
    overlay: the('yaml block (my-overlay/kustomization.yaml) in "## The switch"', blocks(switchSection, 'yaml')[0]),
    check: commandLines(the('sh block after "Check it:"', blocks(switchSection.slice(checkAt), 'sh')[0])),
    switchBack: commandLines(the('sh block in "## The switch back"', blocks(section(text, 'The switch back'), 'sh')[0])),
  };
}

/** The command of the switch that starts Tailor's updater (run a history step after the others). */
export const UPDATER_START = /scale deployment tailor-updater --replicas=1$/;
