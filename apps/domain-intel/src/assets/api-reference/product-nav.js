// The reference page draws the product's navigation bar (views/partials/site-header.eta): the
// same links in the same order, "API reference" current, so /docs reads as part of the product.
const DOC_LINKS = [
  ['API reference', '/docs', true],
  ['Guides', '/docs/guides', false],
  ['Error codes', '/docs/errors', false],
  ['Webhook events', '/docs/events', false],
];
const ACCOUNT_LINKS = [
  ['Dashboard', '/dashboard', ''],
  ['Sign up free', '/signup', 'nav-button'],
];

function list(className, links) {
  const ul = document.createElement('ul');
  ul.className = className;
  for (const [text, href, extra] of links) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.textContent = text;
    link.href = href;
    if (extra === true) link.setAttribute('aria-current', 'page');
    if (typeof extra === 'string' && extra) link.className = extra;
    item.appendChild(link);
    ul.appendChild(item);
  }
  return ul;
}

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
  nav.appendChild(list('topbar-links', DOC_LINKS));
  nav.appendChild(list('topbar-actions', ACCOUNT_LINKS));
  bar.appendChild(nav);
}

addProductNav();
