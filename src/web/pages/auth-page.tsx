import { Link } from 'wouter';
import { Page } from '../components/layout/page';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { SignInForm, SignUpForm } from '../features/auth';
import { paths } from '../lib/paths';

const inlineLink =
  'font-medium text-violet-700 underline underline-offset-2 hover:text-violet-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-violet-600 rounded';

export default function AuthPage() {
  return (
    <Page title="Welcome to Crossfade" width="narrow" align="center">
      <Card>
        <Tabs defaultValue="sign-in">
          <CardHeader>
            <CardDescription className="text-center">
              Sign in to your account or create a new one.
            </CardDescription>
            <TabsList className="mt-2 grid w-full grid-cols-2">
              <TabsTrigger value="sign-in">Sign In</TabsTrigger>
              <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
            </TabsList>
          </CardHeader>
          <CardContent>
            <TabsContent value="sign-in">
              <SignInForm />
            </TabsContent>
            <TabsContent value="sign-up">
              <SignUpForm />
            </TabsContent>
          </CardContent>
        </Tabs>
        <CardFooter>
          <p className="w-full text-center text-xs leading-relaxed text-slate-600">
            By continuing, you agree to our{' '}
            <Link href={paths.terms} className={inlineLink}>
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link href={paths.privacy} className={inlineLink}>
              Privacy Policy
            </Link>
            .
          </p>
        </CardFooter>
      </Card>
    </Page>
  );
}
