import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useLogin } from '../../../hooks/use-auth';
import { toast } from '../../../hooks/use-toast';
import { serverMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { LOGIN_FAILED, returnPathFrom, validateSignIn } from '../auth-validation';
import { PasswordField } from './password-field';

export function SignInForm() {
  const [, navigate] = useLocation();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateSignIn({ username, password });
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: () => {
          toast({ title: 'Welcome back!', description: 'You are signed in.' });
          navigate(returnPathFrom(window.location.search) ?? paths.serviceSelection);
        },
        onError: (error) => {
          toast({
            title: LOGIN_FAILED.title,
            description: serverMessage(error) ?? LOGIN_FAILED.description,
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Sign in">
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        required
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        revealable
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
      />
      <Button type="submit" size="lg" disabled={login.isPending} className="w-full">
        {login.isPending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
        Sign In
      </Button>
    </form>
  );
}
