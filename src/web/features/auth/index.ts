// The public face of the auth feature: pages and other features import from here only.
export { returnPathFrom, signInPathFor } from './auth-validation';
export { SignInForm } from './components/sign-in-form';
export { SignUpForm } from './components/sign-up-form';
