/** The commented starting file of "New API Request Definition" (definition files allow comments). */
export function definitionTemplate(): string {
  return `// An external API request the assistant can call as a function (service API, section 2.9).
// {{name}} in the URL and in header values takes the function argument of that name;
// {{api_key}} in a header takes the API Key. Preview and send it with the lenses above.
{
  "name": "Order status",
  // Placeholders are filled from the arguments, percent-encoded. Fixed parameters never fill them.
  "url": "https://api.example.com/orders/{{order_id}}",
  "method": "GET",
  // A literal, \${env:NAME} or \${secret:NAME} ("ConvAI: Store Request Secret"). Literals stay in this file.
  "api_key": "\${secret:orders-api}",
  "headers": {
    "Authorization": "Bearer {{api_key}}"
  },
  // The name and description tell the AI when to call this function and what to pass.
  "function_definition": {
    "type": "function",
    "name": "get_order_status",
    "description": "Look up the status of a customer's order by its order number.",
    "parameters": {
      "type": "object",
      // Required even when empty: {} for a request that takes no arguments.
      "properties": {
        "order_id": { "type": "string", "description": "The order number, for example A-1042" }
      },
      "required": ["order_id"]
    }
  },
  // Always added to the body. A GET whose arguments all fill placeholders sends no body.
  "fixed_parameters": {},
  // Spoken before the request runs (optional).
  "say_before": "One moment while I look that up."
}
`;
}
