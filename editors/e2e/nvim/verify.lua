-- Running a criterion's check from Neovim (headless, through require('charter').setup()):
-- :CharterVerify on a VAL asks the server, which shows the command verbatim and asks (here
-- answered "Run" through vim.ui.select); the output streams into charter://verify, and the
-- evidence.json, its output.log and the criterion-state.json entry appear, the VAL's lens then
-- showing the pass; a long run stopped with :CharterVerifyCancel records nothing;
-- :CharterQuickfix lists the blockers; a .charters/ criterion gets its Status line.
local charter = require('charter')
local ws = os.getenv('CHARTER_WS')
local TIMEOUT = 20000

vim.o.swapfile = false
charter.setup({ cmd = { os.getenv('CHARTER_LSP'), 'serve' }, legacy = true })
_G.print = function(...)
  io.stderr:write('# ' .. table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
end
vim.notify = function(msg)
  io.stderr:write('# ' .. tostring(msg):gsub('\n', ' ') .. '\n')
end
-- The user's answers to the server's questions, and what was asked.
local asked, answer = {}, 'Run'
vim.ui.select = function(items, opts, on_choice)
  table.insert(asked, { prompt = opts.prompt, items = items })
  on_choice(vim.tbl_contains(items, answer) and answer or nil)
end

local passed, failed, n, done = 0, 0, 0, {}
local function check(name, needs, fn)
  n = n + 1
  for _, dep in ipairs(needs) do
    if not done[dep] then
      failed = failed + 1
      io.stdout:write(string.format('not ok %d - %s: not run, %q failed earlier\n', n, name, dep))
      return
    end
  end
  local ok, err = pcall(fn)
  if ok then
    passed, done[name] = passed + 1, true
    io.stdout:write(string.format('ok %d - %s\n', n, name))
  else
    failed = failed + 1
    io.stdout:write(string.format('not ok %d - %s: %s\n', n, name, tostring(err):gsub('\n', '\n    ')))
  end
end

local function wait(what, cond)
  if not vim.wait(TIMEOUT, cond, 50) then
    error('timed out waiting for ' .. what)
  end
end

local function read(path)
  local f = io.open(path)
  if not f then
    return nil
  end
  local s = f:read('*a')
  f:close()
  return s
end

local function open(rel)
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/' .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  wait('charter-lsp to attach to ' .. rel, function()
    local c = charter.client(bufnr)
    return c ~= nil and c.initialized
  end)
  return bufnr, charter.client(bufnr)
end

local function lenses(bufnr, client)
  local res = charter.request_sync(client, 'textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, TIMEOUT, bufnr)
  local titles = {}
  for _, l in ipairs(res and res.result or {}) do
    table.insert(titles, l.command and l.command.title or '')
  end
  return titles
end

local function output()
  local b = vim.fn.bufnr('charter://verify')
  return b == -1 and '' or table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
end

local dir = ws .. '/.pi/charters/v'
local bufnr, client

check('the VAL has a Run lens with its command', {}, function()
  bufnr, client = open('.pi/charters/v/criteria.md')
  wait('the Run lens', function()
    return vim.tbl_contains(lenses(bufnr, client), '▶ Run `echo verify-e2e-output && echo all checks passed`')
  end)
end)

check(':CharterVerify asks with the command, runs it, records it', { 'the VAL has a Run lens with its command' }, function()
  vim.api.nvim_win_set_cursor(0, { 6, 0 }) -- in VAL-V-001
  vim.cmd('CharterVerify')
  wait('criterion-state.json', function()
    return read(dir .. '/criterion-state.json') ~= nil
  end)
  assert(#asked == 1 and asked[1].prompt:find('\n\necho verify-e2e-output && echo all checks passed', 1, true), 'the question: ' .. vim.inspect(asked))
  wait('the output in charter://verify', function()
    return output():find('all checks passed\n# pass: ', 1, true) ~= nil
  end)
  local state = vim.fn.json_decode(read(dir .. '/criterion-state.json'))
  local entry = state.criteria['VAL-V-001']
  assert(entry and entry.outcome == 'pass' and entry.source == 'verifier', vim.inspect(state))
  local row = vim.fn.json_decode(read(dir .. '/' .. entry.lastEvidencePath))
  assert(row.details.command == 'echo verify-e2e-output && echo all checks passed' and row.details.exitCode == 0, vim.inspect(row))
  local log = read(dir .. '/' .. row.artifacts[1])
  assert(log and log:find('verify-e2e-output\nall checks passed\n', 1, true), 'output.log: ' .. tostring(log))
end)

check('the VAL lens then shows the pass', { ':CharterVerify asks with the command, runs it, records it' }, function()
  wait('the ✓ pass lens', function()
    for _, t in ipairs(lenses(bufnr, client)) do
      if t:find('^✓ pass') then
        return true
      end
    end
    return false
  end)
end)

check(':CharterVerifyCancel stops a long run; nothing recorded', { 'the VAL has a Run lens with its command' }, function()
  vim.api.nvim_win_set_cursor(0, { 10, 0 }) -- in VAL-V-002
  vim.cmd('CharterVerify')
  wait('the first line of output', function()
    return output():find('started-long-check', 1, true) ~= nil
  end)
  vim.cmd('CharterVerifyCancel')
  wait('the run to say it recorded nothing', function()
    return output():find('cancelled; nothing recorded', 1, true) ~= nil
  end)
  local state = vim.fn.json_decode(read(dir .. '/criterion-state.json'))
  assert(state.criteria['VAL-V-002'] == nil, 'the cancelled run recorded: ' .. vim.inspect(state.criteria))
end)

check(':CharterQuickfix lists the blockers at their criteria', { ':CharterVerify asks with the command, runs it, records it' }, function()
  vim.cmd('CharterQuickfix')
  local items
  wait('the quickfix list', function()
    items = vim.fn.getqflist()
    return #items > 0
  end)
  local found = false
  for _, it in ipairs(items) do
    if it.text:find('VAL-V-002', 1, true) then
      found = vim.api.nvim_buf_get_name(it.bufnr) == dir .. '/criteria.md' and it.lnum == 9
    end
    assert(not it.text:find('VAL-V-001 has', 1, true), 'VAL-V-001 passes now, yet: ' .. it.text)
  end
  assert(found, 'no VAL-V-002 blocker at criteria.md:9: ' .. vim.inspect(items))
end)

check('a .charters/ criterion gets its Status line', {}, function()
  local b = open('.charters/20260701-000000-ship/charter.md')
  vim.api.nvim_win_set_cursor(0, { 5, 0 })
  vim.cmd('CharterVerify')
  local file = ws .. '/.charters/20260701-000000-ship/charter.md'
  wait('the Status line written and saved', function()
    local s = read(file) or ''
    return s:find('\nStatus: pass — `echo parsed 42/42` exited 0 in ', 1, true) ~= nil
  end)
  assert(not vim.bo[b].modified, 'the buffer was left modified')
end)

io.stdout:write(string.format('%d passed, %d failed\n', passed, failed))
vim.cmd(failed > 0 and 'cquit 1' or 'qall!')
