import { describe, expect, it } from 'vitest';
import { boundaryOf, parseRelated } from './multipart';
import { FieldsError, parseDriveQuery, parseFields, QueryError, selectFields } from './query';
import type { DriveItem } from './wire';

const item = (name: string, parents = ['root'], mimeType = 'text/csv'): DriveItem => ({
  id: name,
  name,
  mimeType,
  parents,
  size: 1,
  md5: '',
  createdTime: '2026-11-27T00:00:00.000Z',
  clientId: 'app',
});

describe("Drive's q", () => {
  it('matches the terms Crossfade sends, joined by and, with quotes escaped', () => {
    const matches = parseDriveQuery(
      "name = 'It\\'s' and mimeType = 'text/csv' and 'folder1' in parents and trashed = false",
    );
    expect(matches(item("It's", ['folder1']))).toBe(true);
    expect(matches(item("It's", ['root']))).toBe(false);
    expect(matches(item('Its', ['folder1']))).toBe(false);
    expect(parseDriveQuery("name contains 'trip'")(item('Road Trip'))).toBe(true);
  });

  it('refuses what it does not know, as Google answers 400', () => {
    expect(() => parseDriveQuery("name = 'a' or name = 'b'")).toThrow(QueryError);
    expect(() => parseDriveQuery("name = 'open")).toThrow(QueryError);
    expect(() => parseDriveQuery('starred = true')).toThrow(QueryError);
  });
});

describe('fields', () => {
  it('selects nested fields and refuses unknown ones', () => {
    const value = {
      kind: 'drive#fileList',
      files: [
        { id: '1', name: 'a', size: '3' },
        { id: '2', name: 'b' },
      ],
    };
    expect(selectFields(value, parseFields('files(id,size)'))).toEqual({
      files: [{ id: '1', size: '3' }, { id: '2' }],
    });
    expect(selectFields(value, parseFields('files/name'))).toEqual({ files: [{ name: 'a' }, { name: 'b' }] });
    expect(() => selectFields(value, parseFields('files(bogus)'))).toThrow(FieldsError);
    expect(() => parseFields('files(id')).toThrow(FieldsError);
  });
});

describe('multipart/related', () => {
  it('splits metadata and binary media on bytes', () => {
    const media = Buffer.from([0, 255, 13, 10, 45, 45]);
    const body = Buffer.concat([
      Buffer.from(
        '--b1\r\ncontent-type: application/json\r\n\r\n{"name":"x.zip"}\r\n--b1\r\ncontent-type: application/zip\r\n\r\n',
      ),
      media,
      Buffer.from('\r\n--b1--'),
    ]);
    expect(boundaryOf('multipart/related; boundary=b1')).toBe('b1');
    expect(boundaryOf('multipart/form-data; boundary=b1')).toBeUndefined();
    const [head, file] = parseRelated(body, 'b1');
    expect(head?.body.toString()).toBe('{"name":"x.zip"}');
    expect(file?.contentType).toBe('application/zip');
    expect(file?.body.equals(media)).toBe(true);
  });
});
