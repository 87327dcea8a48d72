import { startAgent } from './agent-process.ts';

/** One real agent for the whole run; specs read its URL from the environment. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const agent = await startAgent();
  process.env.PAGELENS_E2E_URL = agent.url;
  process.env.PAGELENS_E2E_ORIGIN = agent.origin;
  process.env.PAGELENS_E2E_TOKEN = agent.token;
  return async () => {
    await agent.stop();
  };
}
