import { cleanJsonText } from '../../shared/text';

/** Why a model answer was not used; logged with the warning, never shown to the person. */
export type ModelFailureReason =
  | 'http_error'
  | 'timeout'
  | 'connection_error'
  | 'no_text'
  | 'malformed_json'
  | 'invalid_shape'
  | 'unknown_candidate'
  | 'invented_numbers'
  | 'addressed_reader'
  | 'repeated_answer'
  | 'unexpected_error';

export class ModelAnswerError extends Error {
  override readonly name = 'ModelAnswerError';
  constructor(
    readonly reason: ModelFailureReason,
    message: string,
  ) {
    super(message);
  }
}

const FENCED = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/;

/**
 * Models asked for "JSON only" still wrap it in a code fence or a sentence now and then; take the fenced
 * part, else the outermost braces, and parse that; strings come back cleaned (shared/text.ts).
 */
export function parseModelJson(text: string): unknown {
  const fenced = FENCED.exec(text)?.[1];
  let candidate = (fenced ?? text).trim();
  if (!candidate.startsWith('{')) {
    const start = candidate.indexOf('{');
    const end = candidate.lastIndexOf('}');
    if (start === -1 || end <= start)
      throw new ModelAnswerError('malformed_json', 'The answer holds no JSON object.');
    candidate = candidate.slice(start, end + 1);
  }
  try {
    // The text rule for answers we store (issue 10): a NUL or lone surrogate in a name is cleaned here.
    return cleanJsonText(JSON.parse(candidate));
  } catch {
    // Not the parser's message: it quotes the answer, which may repeat the person's playlist names, and
    // this text goes to the log.
    throw new ModelAnswerError('malformed_json', 'The answer is not valid JSON.');
  }
}
