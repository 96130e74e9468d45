// The interview as a conversation (the server's charter.interview.turn): the server says
// what each prompt shows — its title ("Q2 of 5 · Target Users"), the question, the hint,
// the buttons and what each of them means — and which command carries out each choice.
// The extension shows the prompt and runs what the user picks; it retypes no question,
// topic or button of the server's. No vscode import here, so the tests drive these
// functions against the real server.
import { CommandRequest, ServerCommand } from './server';

/** A choice in a prompt and the server command that carries it out. */
export interface TurnAction {
  /** "answer", "skip", "finish": which choice it is (for an icon). */
  id: string;
  label: string;
  tooltip: string;
  command: string;
  arguments: unknown[];
}

/** The next prompt of the interview, or its end. */
export interface Turn {
  /** Nothing more to ask: message says how the interview ended. */
  done: boolean;
  message?: string;
  level?: 'info' | 'warning' | 'error';
  title?: string;
  question?: string;
  placeholder?: string;
  /** Takes what the user types: run with arguments[0].answer set to the text. */
  answer?: TurnAction;
  /** The other choices, in order; each runs as it is. */
  buttons: TurnAction[];
}

/** isTurn tells the server's turn from anything else (an older server's answer). */
export function isTurn(v: unknown): v is Turn {
  return typeof v === 'object' && v !== null && typeof (v as Turn).done === 'boolean' && Array.isArray((v as Turn).buttons);
}

/** The first turn: start the interview of the charter at uri, or go on where it stands. */
export function startRequest(uri: string): CommandRequest {
  return { command: ServerCommand.interviewTurn, arguments: [{ uri }] };
}

/** The request that gives the server what the user typed, as the turn says to. */
export function answerRequest(turn: Turn, text: string): CommandRequest | undefined {
  const a = turn.answer;
  if (!a || a.arguments.length === 0) {
    return undefined;
  }
  const [first, ...rest] = a.arguments;
  return { command: a.command, arguments: [{ ...(first as object), answer: text }, ...rest] };
}

/** The request a button stands for. */
export function buttonRequest(b: TurnAction): CommandRequest {
  return { command: b.command, arguments: b.arguments };
}

/** What an empty Enter says: type an answer, or pick one of the server's buttons. */
export function emptyAnswerHint(turn: Turn): string {
  const labels = turn.buttons.map((b) => b.label);
  return labels.length > 0 ? `Type an answer, or choose ${labels.join(' or ')} (the buttons above); Esc stops.` : 'Type an answer; Esc stops.';
}
