import { strict as assert } from 'assert';
import { test } from 'node:test';
import { escapeHtml, preformatted, statusPage } from '../src/statusView';

test('the page frames the rendered body and allows no script', () => {
  const page = statusPage('<h1>Charter status</h1>');
  assert.match(page, /<body class="charter-status"><h1>Charter status<\/h1><\/body>/);
  assert.match(page, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';"/);
});

test('markdown shown as text is escaped', () => {
  assert.equal(preformatted('a <script>x</script> & "b"'), '<pre>a &lt;script&gt;x&lt;/script&gt; &amp; &quot;b&quot;</pre>');
  assert.equal(escapeHtml(`'`), '&#39;');
});
