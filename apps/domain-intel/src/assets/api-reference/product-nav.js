// Adds the site's own links (error codes, dashboard, sign-up) to the reference's top bar, so the
// page reads as part of the product rather than a stock swagger-ui.
const PRODUCT_LINKS = [
  ['Error codes', '/docs/errors'],
  ['Dashboard', '/dashboard'],
  ['Sign up', '/signup'],
];

function addProductNav() {
  const bar = document.querySelector('.swagger-ui .topbar .topbar-wrapper');
  if (!bar) {
    setTimeout(addProductNav, 50);
    return;
  }
  if (bar.querySelector('.product-nav')) return;
  const nav = document.createElement('nav');
  nav.className = 'product-nav';
  nav.setAttribute('aria-label', 'Main');
  for (const [text, href] of PRODUCT_LINKS) {
    const link = document.createElement('a');
    link.textContent = text;
    link.href = href;
    nav.appendChild(link);
  }
  bar.appendChild(nav);
}

addProductNav();
