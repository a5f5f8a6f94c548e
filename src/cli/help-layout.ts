/**
 * `--help` that wraps at the terminal's width (80 columns when not a terminal). Commander aligns
 * every description after the longest option, and stops wrapping when that leaves under 40
 * columns, which `tailor run`'s long options did; here the option column is capped, and a longer
 * option gets a line of its own with its description wrapped below it.
 */
import { Help, type Command } from 'commander';

/** Widest option column; longer options go on a line of their own. */
export const MAX_TERM_WIDTH = 30;

class WrappingHelp extends Help {
  override padWidth(cmd: Command, helper: Help): number {
    return Math.min(super.padWidth(cmd, helper), MAX_TERM_WIDTH);
  }

  override formatItem(term: string, termWidth: number, description: string, helper: Help): string {
    if (description === '' || helper.displayWidth(term) <= termWidth) return super.formatItem(term, termWidth, description, helper);
    return `  ${term}\n${super.formatItem('', termWidth, description, helper)}`;
  }
}

/** Makes `command` lay its help out with {@link WrappingHelp}; returns it for chaining. */
export function configureHelp(command: Command): Command {
  command.createHelp = () => Object.assign(new WrappingHelp(), command.configureHelp());
  return command;
}
