-- Drives charter-lsp through Neovim's own LSP client, via require('charter').setup() (the
-- path Debian's 0.7.2 uses): open a charter, wait for diagnostics, list code actions,
-- apply the interview action and check the buffer's new lines; the same for evidence.
local charter = require('charter')
local ws = os.getenv('CHARTER_WS')
local X = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv('CHARTER_EXPECT')), '\n'))
local TIMEOUT = 10000

vim.cmd('filetype on')
vim.o.swapfile = false
-- The plugin must leave Neovim's own functions alone (other servers use them).
local original_apply = vim.lsp.util.apply_workspace_edit
charter.setup({ cmd = { os.getenv('CHARTER_LSP'), 'serve' }, legacy = true, settings = { questionBudget = 5 } })

-- Neovim 0.7 prints "Workspace edit <label>" when it applies an edit; keep stdout for results.
_G.print = function(...)
  local parts = {}
  for i = 1, select('#', ...) do
    parts[#parts + 1] = tostring(select(i, ...))
  end
  io.stderr:write('# ' .. table.concat(parts, ' ') .. '\n')
end

-- What the plugin tells the user, and the answers a user would type at its prompts.
local notes = {}
vim.notify = function(msg)
  table.insert(notes, msg)
  io.stderr:write('# ' .. tostring(msg):gsub('\n', ' ') .. '\n')
end
-- What the server shows (window/showMessage); Neovim 0.7 would write it to stdout.
local shown = {}
vim.lsp.handlers['window/showMessage'] = function(_, result)
  table.insert(shown, result and result.message or '')
  io.stderr:write('# showMessage: ' .. tostring(result and result.message):gsub('\n', ' ') .. '\n')
end
local prompts, answers = {}, {}
vim.ui.input = function(opts, on_confirm)
  table.insert(prompts, opts.prompt or '')
  on_confirm(table.remove(answers, 1))
end
-- vim.ui.select: the choices offered (as shown), and the labels a user picks, in order.
local offered, picks = {}, {}
vim.ui.select = function(items, opts, on_choice)
  local shown = {}
  for _, it in ipairs(items) do
    table.insert(shown, opts.format_item and opts.format_item(it) or tostring(it))
  end
  table.insert(offered, shown)
  local want = table.remove(picks, 1)
  for i, it in ipairs(items) do
    if it.label == want then
      return on_choice(it, i)
    end
  end
  on_choice(nil, nil)
end
-- What the server shows (window/showMessage), besides Neovim's own output.
local shown = {}
local show_message = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, cfg)
  table.insert(shown, result and result.message or '')
  return show_message(err, result, ctx, cfg)
end

local passed, failed, n = 0, 0, 0
local done = {}

local function out(line)
  io.stdout:write(line .. '\n')
end

-- check runs one step; needs names the steps it depends on.
local function check(name, needs, fn)
  n = n + 1
  for _, dep in ipairs(needs) do
    if not done[dep] then
      failed = failed + 1
      out(string.format('not ok %d - %s: not run, %q failed earlier', n, name, dep))
      return
    end
  end
  local ok, err = pcall(fn)
  if ok then
    passed = passed + 1
    done[name] = true
    out(string.format('ok %d - %s', n, name))
  else
    failed = failed + 1
    out(string.format('not ok %d - %s: %s', n, name, tostring(err):gsub('\n', '\n    ')))
  end
end

local function codes(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, string.format('%s@%d', tostring(d.code), d.lnum))
  end
  return table.concat(list, ', ')
end

local function has_diag(bufnr, e)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == e.code and (not e.lines or (d.lnum >= e.lines[1] and d.lnum <= e.lines[2])) then
      return true
    end
  end
  return false
end

local function wait_diags(bufnr, expected)
  local ok = vim.wait(TIMEOUT, function()
    for _, e in ipairs(expected) do
      if not has_diag(bufnr, e) then
        return false
      end
    end
    return true
  end, 50)
  if not ok then
    local missing = {}
    for _, e in ipairs(expected) do
      if not has_diag(bufnr, e) then
        table.insert(missing, string.format('%s on lines %d-%d', e.code, e.lines[1], e.lines[2]))
      end
    end
    error('missing diagnostics: ' .. table.concat(missing, '; ') .. ' (got: ' .. codes(bufnr) .. ')')
  end
end

local function open(rel)
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/' .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  local attached = vim.wait(TIMEOUT, function()
    local c = charter.client(bufnr)
    return c ~= nil and c.initialized
  end, 50)
  if not attached then
    error('charter-lsp did not attach to ' .. rel .. ' and initialize within ' .. TIMEOUT .. ' ms')
  end
  return bufnr, charter.client(bufnr)
end

local function code_actions(bufnr, client, line, character)
  local pos = { line = line, character = character }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = pos, ['end'] = pos },
    context = { diagnostics = {} },
  }
  local res, err = charter.request_sync(client, 'textDocument/codeAction', params, TIMEOUT, bufnr)
  if not res then
    error('textDocument/codeAction: ' .. tostring(err))
  end
  if res.err then
    error('textDocument/codeAction failed: ' .. (res.err.message or vim.inspect(res.err)))
  end
  return res.result or {}
end

local function find_action(actions, title)
  local titles = {}
  for _, a in ipairs(actions) do
    if a.title:find(title, 1, true) then
      return a
    end
    table.insert(titles, a.title)
  end
  error(string.format('no %q action; got %s', title, vim.inspect(titles)))
end

-- Applies a code action as the editor's own UI would: resolve, apply its edit, run its command.
local function apply_action(bufnr, client, action)
  local caps = client.server_capabilities or {}
  if not action.edit and not action.command and type(caps.codeActionProvider) == 'table' and caps.codeActionProvider.resolveProvider then
    local res = charter.request_sync(client, 'codeAction/resolve', action, TIMEOUT, bufnr)
    action = res and res.result or action
  end
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  local cmd = type(action.command) == 'table' and action.command or (type(action.command) == 'string' and action or nil)
  if cmd then
    -- The server answers with a workspace/applyEdit request, which Neovim's handler applies.
    local res, err = charter.request_sync(client, 'workspace/executeCommand', { command = cmd.command, arguments = cmd.arguments }, TIMEOUT, bufnr)
    if not res then
      error('workspace/executeCommand ' .. cmd.command .. ': ' .. tostring(err))
    end
    if res.err then
      error('workspace/executeCommand ' .. cmd.command .. ' failed: ' .. (res.err.message or vim.inspect(res.err)))
    end
    return res.result
  end
end

-- assert_lines_in_order fails unless lines holds, in this order, a line matching each of
-- the Vim regexps res.
local function assert_lines_in_order(lines, res)
  local at = 0
  for _, re in ipairs(res) do
    local rx = vim.regex(re)
    local found
    for i = at + 1, #lines do
      if rx:match_str(lines[i]) then
        found = i
        break
      end
    end
    assert(found, string.format('no line matching %s after line %d in:\n%s', re, at, table.concat(lines, '\n')))
    at = found
  end
end

local bufs = {}

check('attach to criteria.md', {}, function()
  bufs.criteria, bufs.client = open(X.criteria.file)
end)

check('diagnostics in criteria.md', { 'attach to criteria.md' }, function()
  wait_diags(bufs.criteria, X.criteria.diagnostics)
  for _, d in ipairs(vim.diagnostic.get(bufs.criteria)) do
    assert(d.source == 'charter', 'diagnostic ' .. tostring(d.code) .. ' has source ' .. tostring(d.source))
  end
end)

check('edit clears missing-because', { 'diagnostics in criteria.md' }, function()
  local c = X.criteria.change
  vim.api.nvim_buf_set_lines(bufs.criteria, c.insertAt.line, c.insertAt.line, false, { (c.text:gsub('\n$', '')) })
  local gone = vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(bufs.criteria)) do
      if d.code == c.gone then
        return false
      end
    end
    return true
  end, 50)
  assert(gone, c.gone .. ' still reported after the edit: ' .. codes(bufs.criteria))
  -- Put the file back as it was for the steps below.
  vim.api.nvim_buf_set_lines(bufs.criteria, c.insertAt.line, c.insertAt.line + 1, false, {})
end)

check('hover on a VAL heading', { 'attach to criteria.md' }, function()
  local h = X.criteria.hover
  local res = charter.request_sync(bufs.client, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufs.criteria) },
    position = { line = h.line, character = h.character },
  }, TIMEOUT, bufs.criteria)
  assert(res and not res.err, 'hover failed: ' .. tostring(res and res.err and res.err.message or 'no answer'))
  local text = table.concat(vim.lsp.util.convert_input_to_markdown_lines(res.result and res.result.contents or ''), '\n')
  for _, want in ipairs(h.contains) do
    assert(text:find(want, 1, true), string.format('hover lacks %q: %s', want, text:sub(1, 200)))
  end
end)

check('interview: list code actions in charter.md', {}, function()
  bufs.charter, bufs.client2 = open(X.charter.file)
  wait_diags(bufs.charter, X.charter.diagnostics)
  local iv = X.charter.interview
  bufs.interview = find_action(code_actions(bufs.charter, bufs.client2, iv.line, iv.character), iv.title)
end)

check('interview: apply the action, new lines in the buffer', { 'interview: list code actions in charter.md' }, function()
  local iv = X.charter.interview
  local before = vim.api.nvim_buf_line_count(bufs.charter)
  apply_action(bufs.charter, bufs.client2, bufs.interview)
  vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_line_count(bufs.charter) > before
  end, 50)
  local lines = vim.api.nvim_buf_get_lines(bufs.charter, 0, -1, false)
  assert_lines_in_order(lines, iv.newLines)
  local keep = vim.regex(iv.keep)
  local kept = false
  for _, l in ipairs(lines) do
    kept = kept or keep:match_str(l) ~= nil
  end
  assert(kept, 'the earlier entry was lost')
end)

check('record evidence: list code actions on a VAL', { 'attach to criteria.md' }, function()
  local r = X.criteria.record
  vim.cmd('buffer ' .. bufs.criteria)
  bufs.record = find_action(code_actions(bufs.criteria, bufs.client, r.line, r.character), r.title)
end)

check('record evidence: apply the action, evidence.json written', { 'record evidence: list code actions on a VAL' }, function()
  local r = X.criteria.record
  local charter_dir = vim.fn.fnamemodify(ws .. '/' .. X.criteria.file, ':h')
  local before = vim.fn.globpath(charter_dir, 'work/**/evidence.json', false, true)
  apply_action(bufs.criteria, bufs.client, bufs.record)
  vim.cmd('silent! wall') -- edits to files that were not open land in new buffers; save them as a user would
  local after = vim.fn.globpath(charter_dir, 'work/**/evidence.json', false, true)
  local added = {}
  for _, f in ipairs(after) do
    if not vim.tbl_contains(before, f) then
      table.insert(added, f)
    end
  end
  assert(#added == 1, 'expected one new evidence.json, got ' .. vim.inspect(added))
  local row = vim.fn.json_decode(table.concat(vim.fn.readfile(added[1]), '\n'))
  if vim.tbl_islist(row) then
    row = row[1]
  end
  assert(row.criterionId == r.criterionId, 'criterionId ' .. tostring(row.criterionId))
  assert(row.outcome == r.outcome, 'outcome ' .. tostring(row.outcome))
  local state = vim.fn.json_decode(table.concat(vim.fn.readfile(charter_dir .. '/criterion-state.json'), '\n'))
  local entry = state.criteria and state.criteria[r.criterionId]
  assert(entry and entry.outcome == r.outcome, 'criterion-state.json lacks the new outcome: ' .. vim.inspect(entry))
end)

check('the plugin attaches to exactly the charter files', {}, function()
  local wrong = {}
  for _, p in ipairs(X.files.charter) do
    if not charter.is_charter(p) then
      table.insert(wrong, 'not attached: ' .. p)
    end
  end
  for _, p in ipairs(X.files.other) do
    if charter.is_charter(p) then
      table.insert(wrong, 'attached: ' .. p)
    end
  end
  assert(#wrong == 0, table.concat(wrong, '; '))
end)

-- The lines of the buffer showing charter://status, once it shows something.
local function status_buffer_lines()
  local lines
  vim.wait(TIMEOUT, function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(b):match('charter://status$') and vim.api.nvim_buf_line_count(b) > 1 then
        lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
        return true
      end
    end
    return false
  end, 50)
  return lines
end

check(':CharterStatus shows the completion blockers the server reports', { 'attach to criteria.md' }, function()
  vim.cmd('buffer ' .. bufs.criteria)
  vim.cmd('CharterStatus')
  local lines = status_buffer_lines()
  assert(lines, 'no charter://status buffer appeared')
  vim.cmd('close') -- back to criteria.md
  local text = table.concat(lines, '\n')
  assert_lines_in_order(lines, X.status.blockers)
  assert(not text:match('### Completion blockers[^\n]*\n\nNone%.'), 'the view says None. although the server reports blockers')
  -- Every blocker the server's JSON lists is in the view.
  local res = charter.request_sync(bufs.client, 'workspace/executeCommand', { command = 'charter.status', arguments = { { uri = vim.uri_from_bufnr(bufs.criteria) } } }, TIMEOUT, bufs.criteria)
  local blockers = res.result.charters[1].details.blockingForComplete
  assert(#blockers > 0, 'the fixture has blockers')
  for _, b in ipairs(blockers) do
    assert(text:find('**' .. b.reason .. '**', 1, true), 'the view lacks blocker ' .. b.reason .. ': ' .. b.message)
  end
end)

-- Runs :CharterRecord with the cursor at (line, character) and returns the new evidence row.
local function record_at(r)
  local charter_dir = vim.fn.fnamemodify(ws .. '/' .. X.criteria.file, ':h')
  local before = vim.fn.globpath(charter_dir, 'work/**/evidence.json', false, true)
  vim.cmd('buffer ' .. bufs.criteria)
  vim.api.nvim_win_set_cursor(0, { r.line + 1, r.character })
  local seen = #notes
  vim.cmd('CharterRecord ' .. r.args)
  local said
  vim.wait(TIMEOUT, function()
    for i = seen + 1, #notes do
      if notes[i]:find('recorded', 1, true) or notes[i]:find('not recorded', 1, true) or notes[i]:find('failed', 1, true) then
        said = notes[i]
        return true
      end
    end
    return false
  end, 50)
  assert(said, ':CharterRecord said nothing within ' .. TIMEOUT .. ' ms')
  assert(said:find('charter: recorded', 1, true), said)
  vim.cmd('silent! wall')
  local added = {}
  for _, f in ipairs(vim.fn.globpath(charter_dir, 'work/**/evidence.json', false, true)) do
    if not vim.tbl_contains(before, f) then
      table.insert(added, f)
    end
  end
  assert(#added == 1, 'expected one new evidence.json, got ' .. vim.inspect(added))
  local row = vim.fn.json_decode(table.concat(vim.fn.readfile(added[1]), '\n'))
  return vim.tbl_islist(row) and row[1] or row
end

check(':CharterRecord on a manual VAL asks why, as the server requires', { 'attach to criteria.md' }, function()
  local r = X.criteria.recordCommand.manual
  prompts, answers = {}, { r.because }
  local row = record_at(r)
  assert(#prompts == 1 and prompts[1]:find(r.criterionId, 1, true), 'asked: ' .. vim.inspect(prompts))
  assert(row.criterionId == r.criterionId, 'criterionId ' .. tostring(row.criterionId))
  assert(row.because == r.because, 'because ' .. tostring(row.because))
  assert(row.source == 'manual', 'source ' .. tostring(row.source))
end)

check(':CharterRecord on a command-verified VAL asks nothing more', { 'attach to criteria.md' }, function()
  local r = X.criteria.recordCommand.command
  prompts, answers = {}, {}
  local row = record_at(r)
  assert(#prompts == 0, 'asked: ' .. vim.inspect(prompts))
  assert(row.criterionId == r.criterionId and row.outcome == 'fail', vim.inspect(row))
end)

check(':CharterNext on an rp1 skeleton charter asks for the first gap and writes the answer into it', {}, function()
  local rel = 'ferry/.rp1/context/charter.md'
  vim.fn.mkdir(ws .. '/ferry/.rp1/context', 'p')
  vim.fn.writefile({
    '# Project Charter: ferrylog', '**Status**: Draft', '', '## Vision', '_TBD_', '',
    '## Problem & Context', 'Crossings are logged on paper and retyped the next morning.', '',
    '## Target Users', 'Deck officers at sea.', '', '## Business Rationale', 'One entry at sea replaces the paper log.', '',
    '## Scope Guardrails', '### Will', '- Offline logging', "### Won't", '- Payroll', '',
    '## Success Criteria', 'No log is retyped a month after launch.',
  }, ws .. '/' .. rel)
  local bufnr = open(rel)
  prompts, answers = {}, { 'Every crossing logged once, at sea.' }
  vim.cmd('CharterNext')
  local written = vim.wait(TIMEOUT, function()
    local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    return vim.tbl_contains(lines, 'Every crossing logged once, at sea.')
  end, 50)
  assert(#prompts == 1 and prompts[1]:find('Vision', 1, true), 'asked: ' .. vim.inspect(prompts))
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  assert(written, 'the answer is not in the buffer:\n' .. table.concat(lines, '\n'))
  assert(not vim.tbl_contains(lines, '_TBD_'), 'the placeholder is still there:\n' .. table.concat(lines, '\n'))
  assert(vim.tbl_contains(lines, '**Status**: Complete'), 'the status does not follow the gaps:\n' .. table.concat(lines, '\n'))
end)

local modern_notify = vim.fn.has('nvim-0.11') == 1

-- Waits until the conversation has prompted n times (vim.ui.input), or fails.
local function wait_prompts(n)
  local ok = vim.wait(TIMEOUT, function()
    return #prompts >= n
  end, 50)
  assert(ok, string.format('%d prompts of %d; prompts: %s; said: %s', #prompts, n, vim.inspect(prompts), vim.inspect(notes)))
end

local function buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
end

check(':CharterInterview: the interview as a conversation, in the prompts the server words', {}, function()
  local rel = 'conv/.rp1/context/charter.md'
  vim.fn.mkdir(ws .. '/conv/.rp1/context', 'p')
  vim.fn.writefile({}, ws .. '/' .. rel)
  local bufnr = open(rel)
  prompts, offered = {}, {}
  -- The brain dump; then Enter on nothing, which offers the server's choices: Skip; then Esc.
  answers = { 'The problem: on-call engineers lose ten minutes per incident. The users are on-call engineers.', '' }
  picks = { 'Skip' }
  vim.cmd('CharterInterview')
  wait_prompts(3)
  assert(prompts[1]:find('Q1 of 5 · Brain Dump: Tell me everything about this project.', 1, true), prompts[1])
  assert(prompts[2]:find('Q2 of 5 · Value Proposition: ', 1, true), prompts[2])
  assert(prompts[3]:find('Q3 of 5 · Scope: ', 1, true), prompts[3])
  local choices = table.concat(offered[1] or {}, ' | ')
  assert(choices:find('Skip — Skip Q2 (Value Proposition)', 1, true) and choices:find('Finish — ', 1, true) and choices:find('Stop', 1, true), choices)
  local text = buffer_text(bufnr)
  assert(text:find('**Skipped**: Skipped by the user.', 1, true), 'Q2 was not recorded as skipped:\n' .. text)
  -- Esc at Q3: the question stays in the scratch pad, awaiting its answer.
  assert(text:find('### Q3: Scope\n**Asked**: ', 1, true) and text:find('**Answer**: \n', 1, true), 'Q3 is not waiting:\n' .. text)
end)

check(':CharterInterview on an rp1 skeleton charter: one region at a time', {}, function()
  local rel = 'ferry2/.rp1/context/charter.md'
  vim.fn.mkdir(ws .. '/ferry2/.rp1/context', 'p')
  vim.fn.writefile({
    '# Project Charter: ferrylog', '**Status**: Draft', '', '## Vision', '_TBD_', '',
    '## Problem & Context', 'Crossings are logged on paper.', '', '## Target Users', '_TBD_', '',
    '## Business Rationale', 'One entry at sea.', '', '## Scope Guardrails', '### Will', '- Offline logging', "### Won't", '- Payroll', '',
    '## Success Criteria', 'No log is retyped.',
  }, ws .. '/' .. rel)
  local bufnr = open(rel)
  prompts, notes = {}, {}
  answers = { 'Every crossing logged once, at sea.', 'Deck officers at sea.' }
  vim.cmd('CharterInterview')
  local ended = vim.wait(TIMEOUT, function()
    for _, n in ipairs(notes) do
      if n:find('Every region of the charter is written', 1, true) then
        return true
      end
    end
    return false
  end, 50)
  assert(ended, 'no end; prompts: ' .. vim.inspect(prompts) .. ' said: ' .. vim.inspect(notes))
  assert(prompts[1]:find('Region 1 of 7 · Vision: ', 1, true) and prompts[2]:find('Region 3 of 7 · Target Users: ', 1, true), vim.inspect(prompts))
  local text = buffer_text(bufnr)
  assert(text:find('**Status**: Complete', 1, true) and not text:find('_TBD_', 1, true), text)
end)

-- The agent: a shell script that runs charter-lsp's own interview (the built-in engine as an
-- agent, behind rp1's contract), set with setup({ agent = … }), in a project of its own so a
-- new client starts with it. Its workspace settings name another agent, which never runs.
check(':CharterInterview with the interview agent from setup({ agent = … })', {}, function()
  local dir = ws .. '/agentproj'
  vim.fn.mkdir(dir .. '/.rp1/context', 'p')
  local script = dir .. '/../fake-agent'
  vim.fn.writefile({ '#!/bin/sh', 'exec ' .. vim.fn.shellescape(os.getenv('CHARTER_LSP')) .. ' interview "$1" --mode "$2"' }, script)
  vim.fn.setfperm(script, 'rwxr-xr-x')
  local marker = dir .. '/../workspace-agent-ran'
  local evil = dir .. '/../evil-agent'
  vim.fn.writefile({ '#!/bin/sh', 'touch ' .. vim.fn.shellescape(marker) }, evil)
  vim.fn.setfperm(evil, 'rwxr-xr-x')
  charter.setup({ cmd = { os.getenv('CHARTER_LSP'), 'serve' }, legacy = true, agent = script,
    settings = { questionBudget = 5, interviewAgent = evil } })
  vim.fn.writefile({}, dir .. '/.rp1/context/charter.md')
  shown = {}
  local bufnr, client = open('agentproj/.rp1/context/charter.md')
  prompts = {}
  answers = { 'The problem: on-call engineers lose ten minutes per incident. The users are on-call engineers.' }
  vim.cmd('CharterInterview')
  wait_prompts(2)
  assert(prompts[1]:find('Q1 of 5 · Brain Dump (asked by fake-agent): ', 1, true), prompts[1])
  assert(prompts[2]:find('Q2 of 5 · Value Proposition (asked by fake-agent): ', 1, true), prompts[2])
  assert(buffer_text(bufnr):find('### Q2: Value Proposition', 1, true), buffer_text(bufnr))
  -- The agent's progress, as the server reported it.
  local progress = {}
  for _, p in pairs((client.messages or {}).progress or {}) do
    table.insert(progress, tostring(p.title))
  end
  assert(vim.tbl_contains(progress, 'Interview agent'), 'no progress reported: ' .. vim.inspect(client.messages))
  -- The agent named in the settings is ignored, and said so. Neovim 0.8+ sends the settings
  -- on start (workspace/didChangeConfiguration); 0.7 leaves it to the user's on_init: send them.
  if vim.fn.has('nvim-0.8') == 0 then
    if modern_notify then
      client:notify('workspace/didChangeConfiguration', { settings = client.config.settings })
    else
      client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
    end
  end
  assert(vim.fn.filereadable(marker) == 0, 'the agent named in the workspace settings ran')
  local said = table.concat(shown, '\n')
  vim.wait(TIMEOUT, function()
    said = table.concat(shown, '\n')
    return said:find('interviewAgent in the workspace settings is ignored', 1, true) ~= nil
  end, 50)
  assert(said:find('interviewAgent in the workspace settings is ignored', 1, true), 'not said: ' .. said)
end)

-- The workspace path of a buffer's file.
local function rel_path(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local real = vim.loop.fs_realpath(ws) or ws
  for _, root in ipairs({ ws, real }) do
    if name:sub(1, #root + 1) == root .. '/' then
      return name:sub(#root + 2)
    end
  end
  return name
end

local function read(rel)
  return table.concat(vim.fn.readfile(ws .. '/' .. rel), '\n')
end

-- id as a whole word of text (not the start of a longer id).
local function names(text, id)
  return text:find(id:gsub('%-', '%%-') .. '[^%w%-]') ~= nil or text:sub(-#id) == id
end

check('vim.lsp.buf.references lists a VAL everywhere, the test that cites it too', { 'attach to criteria.md' }, function()
  local r = X.ids
  vim.cmd('buffer ' .. bufs.criteria)
  vim.api.nvim_win_set_cursor(0, { r.line + 1, r.character })
  vim.fn.setqflist({}, 'r')
  vim.lsp.buf.references()
  local items = {}
  vim.wait(TIMEOUT, function()
    items = vim.fn.getqflist()
    return #items > 0
  end, 50)
  local files = {}
  for _, it in ipairs(items) do
    files[rel_path(it.bufnr)] = true
  end
  vim.cmd('cclose')
  vim.cmd('buffer ' .. bufs.criteria)
  for _, want in ipairs(r.references) do
    assert(files[want], 'references lack ' .. want .. '; got ' .. vim.inspect(vim.tbl_keys(files)))
  end
end)

check('vim.lsp.buf.rename renames the VAL everywhere but in its recorded evidence, and says so', { 'attach to criteria.md' }, function()
  local r = X.ids
  local before = {}
  for _, rel in ipairs(r.rename.history) do
    before[rel] = read(rel)
  end
  vim.cmd('buffer ' .. bufs.criteria)
  vim.api.nvim_win_set_cursor(0, { r.line + 1, r.character })
  local seen = #shown
  vim.lsp.buf.rename(r.rename.to)
  local renamed = vim.wait(TIMEOUT, function()
    return names(table.concat(vim.api.nvim_buf_get_lines(bufs.criteria, 0, -1, false), '\n'), r.rename.to)
  end, 50)
  assert(renamed, 'criteria.md was not renamed')
  vim.cmd('silent! wall') -- the files that were not open were renamed in new buffers; save them as a user would
  for _, rel in ipairs(r.rename.moves) do
    local text = read(rel)
    assert(names(text, r.rename.to) and not names(text, r.criterionId), rel .. ' was not renamed:\n' .. text)
  end
  for rel, text in pairs(before) do
    assert(read(rel) == text, rel .. ' (recorded evidence) changed without the user confirming it')
  end
  local told = false
  for i = seen + 1, #shown do
    told = told or shown[i]:find('recorded evidence', 1, true) ~= nil
  end
  assert(told, 'the server did not say the evidence keeps the old id: ' .. vim.inspect(shown))
end)

check('the plugin leaves vim.lsp.util.apply_workspace_edit alone', {}, function()
  assert(vim.lsp.util.apply_workspace_edit == original_apply, 'vim.lsp.util.apply_workspace_edit was replaced: other servers would run through it')
end)

check('buffer-local :Charter commands exist', { 'attach to criteria.md' }, function()
  local cmds = vim.api.nvim_buf_get_commands(bufs.criteria, {})
  for _, name in ipairs({ 'CharterInterview', 'CharterNext', 'CharterFinish', 'CharterRecord', 'CharterStatus' }) do
    assert(cmds[name], ':' .. name .. ' missing')
  end
end)

out(string.format('%d passed, %d failed', passed, failed))
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(3000, function()
  return #vim.lsp.get_active_clients() == 0
end, 50)
vim.cmd(failed > 0 and 'cquit 1' or 'qall!')
