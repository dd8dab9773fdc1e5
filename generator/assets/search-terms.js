// Which depth a search hit is about: the words of the hit and how many of them a text holds.
// Pure (no page), so node's test runner checks it (tests/js/).

// The words of a search query, as search matches them: lower case, split at spaces and hyphens,
// one-letter words left out.
export function searchWords(query) {
  return query.toLowerCase().split(/[\s-]+/).filter((term) => term.length > 1);
}

const escapeForPattern = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// How many of the terms start a word in the text (search matches words by their beginning).
export function termsFound(text, terms) {
  const lower = text.toLowerCase();
  return terms.filter((term) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeForPattern(term)}`, "u").test(lower)).length;
}
