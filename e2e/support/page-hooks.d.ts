// The slice of the web app's test hooks (apps/web/src/app/test-hooks.ts) that specs use.
// Declared here so e2e does not import the app's code.
interface PageLensCallOutcome {
  readonly ok: boolean;
  readonly ret?: number;
  readonly retName?: string;
  readonly message?: string;
  readonly out?: Readonly<Record<string, unknown>>;
}

interface Window {
  __pagelens?: {
    idle(): Promise<void>;
    shortcutConflicts(): string[];
    agent: { call(fn: string, args: Readonly<Record<string, unknown>>, process?: number): Promise<PageLensCallOutcome> };
  };
}
