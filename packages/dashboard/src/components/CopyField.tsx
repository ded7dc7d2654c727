import { ActionIcon, CopyButton, Group, TextInput, Tooltip } from '@mantine/core';

/** A read-only value with a copy button (keyboard: Tab to the button, Enter or Space copies). */
export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        label={label}
        value={value}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
        styles={{ input: { fontFamily: 'ui-monospace, monospace', fontSize: 13 } }}
        onFocus={(e) => e.currentTarget.select()}
        {...(testId ? { 'data-testid': testId } : {})}
      />
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : 'blue'}
              size={36}
              onClick={copy}
              aria-label={`Copy ${label}`}
            >
              {copied ? <CheckIcon /> : <CopyIcon />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

const CopyIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
  </svg>
);
const CheckIcon = () => (
  <svg
    width="18"
    height="18"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2.5"
    aria-hidden="true"
  >
    <path d="M20 6 9 17l-5-5" />
  </svg>
);
