/**
 * The Content-Security-Policy of every HTML page Tare serves (the merchant admin, the sandbox
 * storefront): scripts, styles, fetches and forms from Tare only, images from Tare or data URLs,
 * never framed (no CDN: every page and asset comes from Tare).
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');
