/**
 * The frame of the extension's webview pages (the flow map, the variant lab): a Content Security Policy that runs
 * only the page's own script, by a nonce, and styles only from the extension; the body is the page's own markup,
 * with no service text in it, which its script fills with text nodes only.
 */
export interface PageResources {
  nonce: string;
  cspSource: string;
  scriptUri: string;
  styleUri: string;
}

export function webviewPage(
  title: string,
  body: string,
  { nonce, cspSource, scriptUri, styleUri }: PageResources,
): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${styleUri}">
<title>${title}</title>
</head>
<body>
${body}
<script nonce="${nonce}" src="${scriptUri}"></script>
</body>
</html>`;
}
