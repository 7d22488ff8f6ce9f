/** Text made safe inside an HTML attribute (or element text) the server writes by hand (<head> tags). */
export const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
