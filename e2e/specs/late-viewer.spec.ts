import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

// Issue 17 item 1: a viewer who joins after the driver's calls gets the session's history.

const KiB = 1024;

/** What the page's replica holds: every event's seq, the call functions, and allocations at the cursor. */
async function replica(page: Page): Promise<{ seqs: number[]; calls: string[]; allocationsAtCursor: number }> {
  return page.evaluate(() => {
    interface Held {
      readonly allocations: { readonly size: number };
    }
    interface Event {
      readonly seq: number;
      readonly kind: string;
      readonly fn?: string;
    }
    // The app's hooks also carry its store (apps/web/src/app/test-hooks.ts); e2e declares only what it needs.
    const hooks:
      | {
          idle(): Promise<void>;
          store?: {
            getState(): {
              cursor: 'live' | number;
              timeline?: { live: Held; stateAt(seq: number): Held; events: readonly Event[]; calls: readonly number[] };
            };
          };
        }
      | undefined = window.__pagelens;
    const state = hooks?.store?.getState();
    const timeline = state?.timeline;
    if (state === undefined || timeline === undefined) return { seqs: [], calls: [], allocationsAtCursor: -1 };
    return {
      seqs: timeline.events.map((e) => e.seq),
      calls: timeline.calls.map((i) => timeline.events[i]?.fn ?? '?'),
      allocationsAtCursor: (state.cursor === 'live' ? timeline.live : timeline.stateAt(state.cursor)).allocations.size,
    };
  });
}

test('a viewer who opens the explorer after 19 calls time-travels to call 1 and reads the log from the first call', async ({
  page,
  agent,
  context,
}) => {
  await openExplorer(page, agent);
  expect((await callAcl(page, 'aclInit', { configPath: null })).ok).toBe(true);
  expect((await callAcl(page, 'aclrtSetDevice', { deviceId: 0 })).ok).toBe(true);
  for (let i = 1; i <= 17; i += 1) {
    expect((await callAcl(page, 'aclrtMalloc', { size: i * 64 * KiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' })).ok).toBe(true);
  }
  await idle(page);
  await expect(page.getByTestId('tt-position')).toContainText('call 19 / 19');

  const viewer = await context.newPage();
  await openExplorer(viewer, agent, 'viewer');
  const position = viewer.getByTestId('tt-position');
  // The history arrives in pages; once it is all here the time bar counts every call.
  await expect(position).toContainText('call 19 / 19');
  await expect(viewer.getByTestId('tt-history')).toHaveCount(0);
  const driverHeld = await replica(page);
  const viewerHeld = await replica(viewer);
  expect(viewerHeld.seqs).toEqual(driverHeld.seqs);
  expect(viewerHeld.calls).toEqual(driverHeld.calls);
  expect(viewerHeld.calls.slice(0, 3)).toEqual(['aclInit', 'aclrtSetDevice', 'aclrtMalloc']);
  expect(viewerHeld.allocationsAtCursor).toBe(17);

  // Back to call 1, one call at a time, as a person would with ←.
  await viewer.locator('body').click({ position: { x: 1, y: 1 } });
  for (let call = 18; call >= 1; call -= 1) {
    await viewer.keyboard.press('ArrowLeft');
    await expect(position).toContainText(`call ${call} / 19`);
  }
  await expect(viewer.getByTestId('time-travel')).toHaveAttribute('data-live', 'false');
  // Right after aclInit: no device set, nothing allocated.
  expect((await replica(viewer)).allocationsAtCursor).toBe(0);

  // The log starts at the first call and marks the other 18 as after the cursor.
  await viewer.getByTestId('tab-log').click();
  const rows = viewer.getByTestId('log-row');
  await expect(rows).toHaveCount(19);
  await expect(rows.first()).toContainText('aclInit');
  await expect(viewer.locator('.log-row.future')).toHaveCount(18);
  await snap(viewer, 'late-viewer-call-1');
  // The driver's own view did not move.
  await expect(page.getByTestId('time-travel')).toHaveAttribute('data-live', 'true');
});
