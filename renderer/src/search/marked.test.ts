// Marked renders mail text as text: what looks like markup in a snippet or a body stays characters.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { Marked } from './Marked.tsx';
import { searchTerms } from './search-terms.ts';

const render = (text: string, query: string) =>
  renderToStaticMarkup(createElement(Marked, { text, terms: searchTerms(query) }));

describe('Marked', () => {
  test('marks the terms and escapes everything else', () => {
    expect(render('<img src=x onerror=alert(1)> budget <b>Budget</b>', 'budget')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; <mark class="search-term" data-testid="search-mark">budget</mark> &lt;b&gt;<mark class="search-term" data-testid="search-mark">Budget</mark>&lt;/b&gt;',
    );
  });

  test('a term that is markup is matched as text and still escaped', () => {
    expect(render('a <script> here', '"<script>"')).not.toContain('<script>');
  });

  test('without a match the text is returned as it was', () => {
    expect(render('Müller & Co', 'nothing')).toBe('Müller &amp; Co');
  });
});
