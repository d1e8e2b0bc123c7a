import { describe, expect, test } from 'vitest';
import { prepareMarkup } from './prepare-markup.ts';

describe('prepareMarkup', () => {
  test('lifts style blocks out of the markup', () => {
    expect(prepareMarkup('<head><style type="text/css">p{color:red}</style></head><p>x</p>')).toEqual({
      html: '<head></head><p>x</p>',
      css: ['p{color:red}'],
    });
  });

  test('renames style attributes, quoted or not', () => {
    expect(prepareMarkup(`<p style="color:red">a</p><td STYLE='x:1' class=c><b style=y>`).html).toBe(
      `<p data-mail-style="color:red">a</p><td data-mail-style='x:1' class=c><b data-mail-style=y>`,
    );
  });

  test('drops event handler attributes with their values', () => {
    expect(prepareMarkup('<img src="a.png" onerror="alert(1)" alt=x><body onload=go()>').html).toBe(
      '<img src="a.png" alt=x><body>',
    );
  });

  test('leaves attribute values that merely mention style or on* alone', () => {
    const html = '<a title="style=x onclick=y" data-on="1" href="/style">t</a>';
    expect(prepareMarkup(html).html).toBe(html);
  });

  test('drops base tags', () => {
    expect(prepareMarkup('<base href="https://evil.example.net/"><a href="x">y</a>').html).toBe(
      '<a href="x">y</a>',
    );
  });

  test('does not read tags inside comments or raw-text elements', () => {
    const html = '<!-- <style>a{}</style> --><textarea><p style="x"></textarea><script>"<style>"</script>';
    expect(prepareMarkup(html)).toEqual({ html, css: [] });
  });

  test('keeps a style block that hides its rules in a comment, like old mail does', () => {
    expect(prepareMarkup('<style><!-- p{margin:0} --></style>').css).toEqual(['<!-- p{margin:0} -->']);
  });

  test('an unterminated style block takes the rest of the input as CSS', () => {
    expect(prepareMarkup('<p>a</p><style>p{}<p>b</p>')).toEqual({ html: '<p>a</p>', css: ['p{}<p>b</p>'] });
  });

  // 600,000 characters of tags that never close: a scan that backtracked over them (quadratic or worse)
  // would not end within vitest's test timeout, which is what fails then; a linear one takes milliseconds.
  // No tag closes, so nothing is a tag and the text comes back as it was.
  test('leaves input that never closes its tags as it is', () => {
    const hostile = '<a '.repeat(50_000) + '<style '.repeat(50_000) + '<b "'.repeat(50_000);
    expect(prepareMarkup(hostile)).toEqual({ html: hostile, css: [] });
  });
});
