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
              {copied ? '✓' : '⧉'}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
