// Imported first (node --import) into a measured process: its peak memory, the maximum resident set size in KB, as the
// last line of its stderr.
process.on('exit', () => process.stderr.write(`max-rss-kb ${process.resourceUsage().maxRSS}\n`));
