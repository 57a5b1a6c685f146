import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api-client';
import { problemsOf } from './recreate-api';

describe('reading row problems out of a failed request', () => {
  it('lists the problems a 400 carried', () => {
    const error = new ApiRequestError(
      400,
      JSON.stringify({
        message: 'None of the lines looks like a song.',
        problems: [{ row: 2, message: "Line 2 doesn't look like a song." }],
      }),
    );
    expect(problemsOf(error)).toEqual([{ row: 2, message: "Line 2 doesn't look like a song." }]);
  });

  it('is empty for other failures', () => {
    expect(problemsOf(new ApiRequestError(500, '', 'Internal Server Error'))).toEqual([]);
    expect(problemsOf(new Error('network down'))).toEqual([]);
    expect(problemsOf('nope')).toEqual([]);
  });
});
