import { Link } from 'wouter';
import { buttonClasses } from '../components/ui/button';
import { useDocumentTitle } from '../hooks/use-document-title';
import { paths } from '../lib/paths';

export default function NotFoundPage() {
  useDocumentTitle('404 Page Not Found');
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">404 Page Not Found</h1>
      <p className="mt-4 text-slate-600">Did you forget to add the page to the router?</p>
      <Link href={paths.home} className={buttonClasses('outline', 'md', 'mt-8')}>
        Back to home
      </Link>
    </div>
  );
}
