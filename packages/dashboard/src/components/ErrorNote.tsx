import { Alert } from '@mantine/core';

/** An error from the API, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" role="alert" title="Something went wrong" my="sm">
      {message}
    </Alert>
  );
}
