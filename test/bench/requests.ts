// How many requests the service saw for each prompt a side opened or saved, from its request log (test mode): the
// measure behind "one GET per document open", which timings on loopback cannot show (two concurrent GETs to a
// local service cost hardly more time than one).

export interface LoggedRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
}

/** One count per prompt id: the requests on that prompt's path (each id was opened or saved once, by one side). */
export function requestsPerPrompt(log: readonly LoggedRequest[], ids: readonly number[]): number[] {
  const counts = new Map<string, number>();
  for (const { path } of log) counts.set(path, (counts.get(path) ?? 0) + 1);
  return ids.map((id) => counts.get(`/api/v1/ai_prompts/${id}`) ?? 0);
}

/** The service keeps its latest 10,000 requests: a fuller log may have lost some of the bench's. */
export async function fetchRequestLog(serviceUrl: string): Promise<LoggedRequest[]> {
  const response = await fetch(`${serviceUrl}/__test/requests`);
  if (!response.ok) throw new Error(`GET /__test/requests answered ${response.status}: is the service in test mode?`);
  const log = (await response.json()) as LoggedRequest[];
  if (log.length >= 10_000)
    throw new Error("the service's request log is full: the requests per open and save cannot be counted");
  return log;
}
