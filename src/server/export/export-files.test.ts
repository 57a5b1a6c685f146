import { describe, expect, it } from 'vitest';
import { contentDisposition, fileBaseName, formatDuration } from './export-files';

describe('formatDuration', () => {
  it('writes m:ss, h:mm:ss from an hour up, and nothing when unknown', () => {
    expect(formatDuration(205_000)).toBe('3:25');
    expect(formatDuration(61_499)).toBe('1:01');
    expect(formatDuration(59_600)).toBe('1:00');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
    expect(formatDuration(0)).toBe('');
    expect(formatDuration(undefined)).toBe('');
  });
});

describe('file names', () => {
  it('keeps letters of any script and turns the rest into dashes', () => {
    expect(fileBaseName('Sunday Morning ☕')).toBe('Sunday-Morning');
    expect(fileBaseName('夜の曲 / Night')).toBe('夜の曲-Night');
    expect(fileBaseName('***')).toBe('playlist');
  });

  it('gives browsers an ASCII name and the real one', () => {
    expect(contentDisposition('夜の曲.csv')).toBe(
      `attachment; filename="___.csv"; filename*=UTF-8''%E5%A4%9C%E3%81%AE%E6%9B%B2.csv`,
    );
  });
});
