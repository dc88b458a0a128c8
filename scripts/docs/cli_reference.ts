import type { Command } from 'commander'

/** Help as a terminal 100 columns wide shows it, without colours, whatever runs the generator. */
function plainHelp(command: Command) {
  command.configureOutput({ getOutHelpWidth: () => 100, getOutHasColors: () => false })
  return command.helpInformation().trimEnd()
}

/**
 * docs/cli.md: the `dropslot` program's own help, command by command, so the reference cannot
 * say what the program does not do.
 */
export function cliReference(program: Command): string {
  const commands = [...program.commands].sort((a, b) => a.name().localeCompare(b.name()))
  const lines = [
    '# The operator CLI: `dropslot`',
    '',
    '<!-- Generated from cli/program.ts by `npm run docs:generate`; a unit test fails when the',
    'program and this file differ. Edit the program, not this file. -->',
    '',
    'Run it from the production build (`npx dropslot <command>` in `build/`, or',
    '`node build/cli/dropslot.js`) or from a clone (`node cli/dropslot.js`). Exit codes: 0 done,',
    '1 failed (the reason on stderr, or in the JSON with `--json`), 2 bad usage.',
    '',
    '## Every command',
    '',
    '| command | what it does |',
    '|---|---|',
    ...commands.map(
      (command) =>
        `| [\`${command.name()}\`](#${anchor(command)}) | ${command.description().replaceAll('|', '\\|')} |`
    ),
    '',
    '## Global options',
    '',
    '```text',
    plainHelp(program),
    '```',
  ]
  for (const command of commands) {
    lines.push('', `## ${command.name()}`, '', '```text', plainHelp(command), '```')
  }
  return `${lines.join('\n')}\n`
}

/** GitHub's heading anchor for `## name` (lower case, no punctuation but - and _). */
function anchor(command: Command) {
  return command
    .name()
    .toLowerCase()
    .replaceAll(/[^a-z0-9 _-]/g, '')
    .replaceAll(' ', '-')
}
