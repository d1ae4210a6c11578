/**
 * The visible text of raw HTML in Markdown, in time linear in its length. An HTML block that
 * starts with `<!--`, `<?` or `<!X` runs to the end of the document when it is never closed, so
 * patterns like `/<!--[\s\S]*?-->/g` or `/<\/?[A-Za-z](?:[^>"']|"[^"]*"|'[^']*')*>/g` rescanned a
 * caller's megabyte once per opening (80 KB of `<a ` took 9 s, synchronously, past any deadline).
 * The passes below drop exactly what those patterns dropped, in the same order.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Raw HTML is never interpreted: its visible text is kept, tags and comments dropped. */
export function htmlToText(html: string): string {
  return tags(declarations(comments(html)))
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, name: string) => {
      if (name[0] === '#') {
        const cp = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * `<!-->`, `<!--->` and `<!-- … -->` become a space. When no `-->` follows an opening, none follows
 * a later one either, and `<!-->`/`<!--->` hold a `-->` themselves: nothing further can match.
 */
function comments(s: string): string {
  let out = '';
  let last = 0;
  for (let i = s.indexOf('<!--'); i >= 0; i = s.indexOf('<!--', i)) {
    let end: number;
    if (s.startsWith('>', i + 4)) end = i + 5;
    else if (s.startsWith('->', i + 4)) end = i + 6;
    else {
      const close = s.indexOf('-->', i + 4);
      if (close < 0) break;
      end = close + 3;
    }
    out += s.slice(last, i) + ' ';
    last = i = end;
  }
  return out + s.slice(last);
}

/**
 * `<? … ?>`, `<!X … >` (a letter after `!`) and `<![CDATA[ … ]]>` become a space. Each kind's
 * terminator, once missing after an opening, is missing after every later one of that kind.
 */
function declarations(s: string): string {
  let out = '';
  let last = 0;
  const missing = { pi: false, bang: false, cdata: false };
  for (let i = s.indexOf('<'); i >= 0; i = s.indexOf('<', i + 1)) {
    let close = -1;
    let terminator = '';
    if (s[i + 1] === '?' && !missing.pi) {
      terminator = '?>';
      close = s.indexOf(terminator, i + 2);
      if (close < 0) missing.pi = true;
    } else if (s[i + 1] === '!' && isAsciiLetter(s.charCodeAt(i + 2)) && !missing.bang) {
      terminator = '>';
      close = s.indexOf(terminator, i + 3);
      if (close < 0) missing.bang = true;
    } else if (s.startsWith('![CDATA[', i + 1) && !missing.cdata) {
      terminator = ']]>';
      close = s.indexOf(terminator, i + 9);
      if (close < 0) missing.cdata = true;
    }
    if (close < 0) continue;
    out += s.slice(last, i) + ' ';
    last = close + terminator.length;
    i = last - 1;
  }
  return out + s.slice(last);
}

/**
 * Start and end tags, `<` `/`? letter, then characters other than `>` or quoted values, up to `>`,
 * become a space. `ends[p]` is where such a tag that reads position p outside quotes ends (after its
 * `>`), or -1: filled from the right, so every start costs one lookup however far its `>` is.
 */
function tags(s: string): string {
  const n = s.length;
  const ends = new Int32Array(n + 1);
  ends[n] = -1;
  let nextDouble = -1;
  let nextSingle = -1;
  for (let p = n - 1; p >= 0; p--) {
    const c = s.charCodeAt(p);
    if (c === 62 /* > */) ends[p] = p + 1;
    else if (c === 34 /* " */) ends[p] = nextDouble < 0 ? -1 : ends[nextDouble + 1]!;
    else if (c === 39 /* ' */) ends[p] = nextSingle < 0 ? -1 : ends[nextSingle + 1]!;
    else ends[p] = ends[p + 1]!;
    if (c === 34) nextDouble = p;
    else if (c === 39) nextSingle = p;
  }
  let out = '';
  let last = 0;
  for (let i = s.indexOf('<'); i >= 0; i = s.indexOf('<', i + 1)) {
    const letter = s[i + 1] === '/' ? i + 2 : i + 1;
    if (!isAsciiLetter(s.charCodeAt(letter))) continue;
    const end = ends[letter + 1]!;
    if (end < 0) continue;
    out += s.slice(last, i) + ' ';
    last = end;
    i = end - 1;
  }
  return out + s.slice(last);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
