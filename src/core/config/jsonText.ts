// JSON a person wrote (a chain.json, a providers file): parsed, or the first syntax error as one
// sentence with its line and column (V8's message has no position for some errors, Node 20:
// `Unexpected token ']', ..."`, so the position comes from jsonc-parser's scan of the text).

import { ParseErrorCode, visit } from 'jsonc-parser';
import * as l10n from '../base/l10n';
import type { Message } from '../base/l10n';

/** The value of `text` (a leading byte-order mark allowed), or the sentence saying where it is not JSON. */
export function parseJsonText(text: string): { value: unknown } | { error: Message } {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return { value: JSON.parse(body) };
  } catch {
    let found: { position: number; problem: string };
    try {
      found = findJsonError(body);
    } catch {
      // jsonc-parser's visitor recurses once per level: 100,000 "[" overflow the stack.
      return { error: l10n.both('The file is not valid JSON: it is nested too deeply to read.') };
    }
    const { position, problem } = found;
    const before = body.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    return { error: l10n.both('The file is not valid JSON: {0} at line {1}, column {2}.', problem, line, column) };
  }
}

/** The first syntax error in text that JSON.parse refused (found by jsonc-parser in strict JSON mode): its offset and what was expected. */
export function findJsonError(text: string): { position: number; problem: string } {
  // What the parser expected next, followed through the visitor's events: it names the problem
  // when the parser only says it met an unknown word (an unquoted name, "tru", a stray letter).
  type Expect = 'name' | 'colon' | 'value' | 'comma' | 'end';
  const closers: string[] = [];
  let expect: Expect = 'value';
  const afterValue = () => {
    expect = closers.length === 0 ? 'end' : 'comma';
  };
  let first: { code: ParseErrorCode; offset: number; length: number; expect: Expect; closer?: string } | undefined;
  visit(
    text,
    {
      onObjectBegin: () => {
        closers.push('}');
        expect = 'name';
      },
      onArrayBegin: () => {
        closers.push(']');
        expect = 'value';
      },
      onObjectEnd: () => {
        closers.pop();
        afterValue();
      },
      onArrayEnd: () => {
        closers.pop();
        afterValue();
      },
      onObjectProperty: () => {
        expect = 'colon';
      },
      onLiteralValue: afterValue,
      onSeparator: (c) => {
        expect = c === ',' && closers[closers.length - 1] === '}' ? 'name' : 'value';
      },
      onError: (code, offset, length) => {
        first ??= { code, offset, length, expect, closer: closers[closers.length - 1] };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  if (!first) return { position: 0, problem: 'not valid JSON' };
  const { code, offset, length, closer } = first;
  const commaOr = (c: string | undefined) => (c === ']' ? 'expected "," or "]"' : 'expected "," or "}"');
  const expected: Record<Expect, string> = {
    name: 'expected a property name in double quotes',
    colon: 'expected ":"',
    value: 'expected a value',
    comma: commaOr(closer),
    end: 'unexpected text after the end of the JSON value',
  };
  /** Inside the string token jsonc-parser reports whole: the offset of the character at fault. */
  const inString = (pattern: RegExp, skip: number) => {
    const at = text.slice(offset, offset + length).search(pattern);
    return at < 0 ? offset : offset + at + skip;
  };
  let position = offset;
  let problem: string;
  switch (code) {
    case ParseErrorCode.PropertyNameExpected:
      problem = expected.name;
      break;
    case ParseErrorCode.ColonExpected:
      problem = expected.colon;
      break;
    case ParseErrorCode.CommaExpected:
      problem = expected.comma;
      break;
    case ParseErrorCode.CloseBraceExpected:
      problem = commaOr('}');
      break;
    case ParseErrorCode.CloseBracketExpected:
      problem = commaOr(']');
      break;
    case ParseErrorCode.EndOfFileExpected:
      problem = expected.end;
      break;
    case ParseErrorCode.InvalidSymbol:
      problem = expected[first.expect];
      break;
    case ParseErrorCode.InvalidNumberFormat:
    case ParseErrorCode.UnexpectedEndOfNumber:
      problem = first.expect === 'value' ? 'invalid number' : expected[first.expect];
      break;
    case ParseErrorCode.InvalidCommentToken:
    case ParseErrorCode.UnexpectedEndOfComment:
      problem = 'comments are not allowed in JSON';
      break;
    case ParseErrorCode.UnexpectedEndOfString:
      // The string runs to the end of the file, or to a line break (a raw control character).
      position = offset + length;
      problem = position < text.length ? 'unescaped control character in a string' : 'expected the closing quote of a string';
      break;
    case ParseErrorCode.InvalidCharacter:
      problem = 'unescaped control character in a string';
      position = inString(/[\u0000-\u001f]/, 0);
      break;
    case ParseErrorCode.InvalidEscapeCharacter:
      problem = 'invalid escape in a string';
      position = inString(/\\[^"\\/bfnrtu]/, 1);
      break;
    case ParseErrorCode.InvalidUnicode:
      problem = 'invalid escape in a string';
      position = inString(/\\u(?![0-9a-fA-F]{4})/, 1);
      break;
    default:
      problem = expected.value;
  }
  return {
    position,
    problem: position >= text.length ? l10n.t('unexpected end of file ({0})', problem) : l10n.t('{0}, found {1}', problem, JSON.stringify(text[position])),
  };
}
