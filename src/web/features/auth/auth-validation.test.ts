import { describe, expect, it } from 'vitest';
import { returnPathFrom, signInPathFor, validateSignIn, validateSignUp } from './auth-validation';

const complete = {
  username: 'ada',
  email: 'ada@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
};

describe('sign-in validation', () => {
  it('asks for both fields when either is missing', () => {
    const missing = { title: 'Missing information', description: 'Please enter both username and password' };
    expect(validateSignIn({ username: '', password: 'x' })).toEqual(missing);
    expect(validateSignIn({ username: '   ', password: 'x' })).toEqual(missing);
    expect(validateSignIn({ username: 'ada', password: '' })).toEqual(missing);
  });

  it('lets a filled form through', () => {
    expect(validateSignIn({ username: 'ada', password: 'x' })).toBeNull();
  });
});

describe('sign-up validation', () => {
  it('requires username, email and password', () => {
    for (const field of ['username', 'email', 'password'] as const) {
      expect(validateSignUp({ ...complete, [field]: '' })?.description).toBe(
        'Please fill in all required fields',
      );
    }
  });

  it('reports a mismatched confirmation before a short password', () => {
    expect(validateSignUp({ ...complete, password: 'abc', confirmPassword: 'abd' })).toEqual({
      title: 'Password mismatch',
      description: 'Passwords do not match',
    });
  });

  it('rejects passwords under six characters and accepts six', () => {
    expect(validateSignUp({ ...complete, password: 'abcde', confirmPassword: 'abcde' })).toEqual({
      title: 'Password too short',
      description: 'Password must be at least 6 characters long',
    });
    expect(validateSignUp({ ...complete, password: 'abcdef', confirmPassword: 'abcdef' })).toBeNull();
  });
});

describe('returnPathFrom', () => {
  it('brings the person back to the page that sent them to sign in', () => {
    expect(returnPathFrom(signInPathFor('/merge/invite/abc123').slice('/auth'.length))).toBe(
      '/merge/invite/abc123',
    );
    expect(returnPathFrom('?next=%2Faccount')).toBe('/account');
  });

  it('ignores other sites, unknown paths and a missing value', () => {
    for (const search of [
      '',
      '?next=',
      '?next=%2F%2Fevil.example',
      '?next=https%3A%2F%2Fevil.example',
      '?next=%2Fnope',
      '?next=%2F.%2F%2Fevil.example%2Fx',
      '?next=%2F%5Cevil.example',
    ]) {
      expect(returnPathFrom(search), search).toBeNull();
    }
  });
});
