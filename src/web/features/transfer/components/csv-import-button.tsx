import { Upload } from 'lucide-react';
import { type ChangeEvent, useId, useRef } from 'react';
import type { PlaylistSummary } from '../../../../shared/api/playlists';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../hooks/use-toast';
import { rowProblems, serverMessage } from '../../../lib/api-client';
import { useImportCsv } from '../transfer-api';

interface Problems {
  message: string;
  lines: string[];
}

function problemsOf(error: unknown): Problems {
  return {
    message: serverMessage(error) ?? 'The file could not be imported.',
    lines: rowProblems(error).map((problem) => `Row ${problem.row}: ${problem.message}`),
  };
}

/** "Import a CSV": the imported playlist joins the grid, selected, with any row warnings shown. */
export function CsvImportButton({
  onImported,
}: {
  onImported: (playlist: PlaylistSummary) => void | Promise<void>;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const csvImport = useImportCsv();
  const busy = csvImport.isPending;
  const warnings = csvImport.data?.warnings ?? [];
  const problems = csvImport.error ? problemsOf(csvImport.error) : null;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    csvImport.mutate(file, {
      onSuccess: async (answer) => {
        await onImported({
          id: answer.playlist.id,
          name: answer.playlist.name,
          trackCount: answer.playlist.trackCount,
        });
        toast({ title: 'Playlist imported', description: `${answer.playlist.name} is ready to transfer.` });
      },
      onError: (error) =>
        toast({ title: 'Import failed', description: problemsOf(error).message, variant: 'destructive' }),
    });
  };

  return (
    <div className="grid gap-3">
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        tabIndex={-1}
        aria-label="CSV file to import"
        onChange={onFile}
      />
      <Button variant="outline" disabled={busy} onClick={() => inputRef.current?.click()}>
        <Upload aria-hidden="true" className="h-4 w-4" />
        {busy ? 'Importing…' : 'Import a CSV'}
      </Button>
      {warnings.length > 0 ? (
        <Alert>
          <p className="font-medium">Imported with {warnings.length} warning(s):</p>
          <ul className="mt-1 list-disc pl-5">
            {warnings.map((warning) => (
              <li key={`${warning.row}-${warning.message}`}>
                Row {warning.row}: {warning.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {problems ? (
        <Alert variant="destructive">
          <p className="font-medium">{problems.message}</p>
          {problems.lines.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {problems.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
    </div>
  );
}
