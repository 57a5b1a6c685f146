import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useRegister } from '../../../hooks/use-auth';
import { toast } from '../../../hooks/use-toast';
import { serverMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import {
  REGISTRATION_FAILED,
  returnPathFrom,
  type SignUpForm as SignUpValues,
  validateSignUp,
} from '../auth-validation';
import { PasswordField } from './password-field';

const EMPTY: SignUpValues = { username: '', email: '', password: '', confirmPassword: '' };

export function SignUpForm() {
  const [, navigate] = useLocation();
  const register = useRegister();
  const [form, setForm] = useState<SignUpValues>(EMPTY);
  const update = (field: keyof SignUpValues) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateSignUp(form);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    register.mutate(
      { username: form.username.trim(), email: form.email.trim(), password: form.password },
      {
        onSuccess: () => {
          toast({ title: 'Welcome to Crossfade!', description: 'Your account is ready.' });
          navigate(returnPathFrom(window.location.search) ?? paths.onboarding);
        },
        onError: (error) => {
          toast({
            title: REGISTRATION_FAILED.title,
            description: serverMessage(error) ?? REGISTRATION_FAILED.description,
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Sign up">
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        value={form.username}
        onChange={update('username')}
        required
      />
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={form.email}
        onChange={update('email')}
        required
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="new-password"
        value={form.password}
        onChange={update('password')}
        required
      />
      <PasswordField
        label="Confirm Password"
        name="confirmPassword"
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={update('confirmPassword')}
        required
      />
      <Button type="submit" size="lg" disabled={register.isPending} className="w-full">
        {register.isPending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
        Create Account
      </Button>
    </form>
  );
}
