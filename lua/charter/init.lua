-- charter-lsp for Neovim: attaches the charter language server to charter files and adds
-- buffer-local :Charter… commands.
--
-- Neovim 0.11+: lsp/charter.lua (in the same repository) is picked up by vim.lsp.enable('charter');
-- setup() does that for you. Older Neovim (Debian 12 ships 0.7.2): setup() starts the client
-- itself with vim.lsp.start_client and attaches it on BufRead of charter files.
local M = {}

M.defaults = {
  -- The server command; `charter-lsp` must be on PATH, or give a full path.
  cmd = { 'charter-lsp', 'serve' },
  -- Sent as initializationOptions and answered to workspace/configuration (section "charter"):
  -- severity = { ['missing-verifier'] = 'error', ... }, sourceDirs = { 'src' },
  -- freshness = 'mtime' | 'git', questionBudget = 5, debounceMs = 30.
  settings = {},
  -- Called after the client attaches to a buffer, like any on_attach.
  on_attach = nil,
  -- Force the vim.lsp.start_client path even on 0.11+ (the headless tests use it).
  legacy = false,
}

M.root_markers = { '.pi', '.rp1', '.git' }

local uv = vim.loop or vim.uv
local config = vim.deepcopy(M.defaults)
local clients = {} -- root dir -> client id (legacy path)

--- True when a file is a charter file: any charter.md, and criteria.md, REPORT.md and the
--- JSON sidecars inside .pi/charters/.
function M.is_charter(path)
  if not path or path == '' then
    return false
  end
  path = path:gsub('\\', '/')
  local base = path:match('([^/]+)$') or path
  if base:lower() == 'charter.md' then
    return true
  end
  if not path:find('/%.pi/charters/') then
    return false
  end
  return base == 'criteria.md' or base == 'REPORT.md' or base:match('%.json$') ~= nil
end

--- The project root of a file: the nearest folder above it holding .pi/, .rp1/ or .git,
--- else the file's own folder.
function M.root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local cur = dir
  while cur and cur ~= '' do
    for _, marker in ipairs(M.root_markers) do
      if uv.fs_stat(cur .. '/' .. marker) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ':h')
    if parent == cur then
      break
    end
    cur = parent
  end
  return dir
end

local function notify(msg, level)
  vim.notify('charter: ' .. msg, level or vim.log.levels.INFO)
end

--- The client attached to a buffer, if any.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr, name = 'charter' })
    or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(list) do
    if c.name == 'charter' then
      return c
    end
  end
  return nil
end

-- Client methods became colon-called in 0.11; older versions take no self.
local modern = vim.fn.has('nvim-0.11') == 1

--- client.request, on every version.
function M.request(client, method, params, handler, bufnr)
  if modern then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- client.request_sync, on every version: returns { err = …, result = … } or nil, err.
function M.request_sync(client, method, params, timeout_ms, bufnr)
  if modern then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

local function is_stopped(client)
  if modern then
    return client:is_stopped()
  end
  return client.is_stopped()
end

--- Runs a server command (workspace/executeCommand) and calls done(err, result).
function M.execute(bufnr, command, args, done)
  local client = M.client(bufnr)
  if not client then
    notify('no charter-lsp client for this buffer', vim.log.levels.ERROR)
    return
  end
  M.request(client, 'workspace/executeCommand', { command = command, arguments = args }, function(err, result)
    if err then
      notify(command .. ' failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    end
    if done then
      done(err, result)
    end
  end, bufnr)
end

--- The VAL whose section holds the cursor line (nearest ### VAL- heading above, stopping at other headings).
function M.val_at_cursor(bufnr)
  local row = vim.api.nvim_win_get_cursor(0)[1]
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, row, false)
  for i = #lines, 1, -1 do
    local id = lines[i]:match('^###?%s+(VAL%-[A-Z0-9%-]+)')
    if id then
      return id
    end
    if lines[i]:match('^#%s') or lines[i]:match('^##%s') or lines[i]:match('^###%s') then
      return nil
    end
  end
  return nil
end

local function report_interview(result)
  if type(result) ~= 'table' then
    return
  end
  if result.type == 'error' then
    notify(result.message or 'the interview could not continue', vim.log.levels.ERROR)
  elseif result.type == 'success' then
    notify(result.message or 'interview complete; run :CharterFinish to write the sections')
  elseif result.type == 'skip' then
    notify('skipped: ' .. (result.message or 'already covered'))
  elseif result.type == 'next_question' and result.next_question then
    notify('Q' .. tostring(result.metadata and result.metadata.question_number or '?') .. ': ' .. result.next_question)
  end
end

--- Renders the charter.status JSON as markdown lines; reads every field defensively.
function M.status_lines(status)
  local lines = { '# Charter status', '' }
  local function s(v, fallback)
    if type(v) == 'string' or type(v) == 'number' or type(v) == 'boolean' then
      return tostring(v)
    end
    return fallback or '-'
  end
  local charters = type(status) == 'table' and (status.charters or (status.charterId and { status }) or status) or {}
  if type(charters) ~= 'table' or vim.tbl_isempty(charters) then
    table.insert(lines, 'No pi-charter charters were found.')
    return lines
  end
  for _, c in ipairs(charters) do
    if type(c) == 'table' then
      table.insert(lines, '## ' .. s(c.charterId, '(unnamed)') .. (c.status and (' - ' .. s(c.status)) or ''))
      table.insert(lines, '')
      for _, m in ipairs(type(c.milestones) == 'table' and c.milestones or {}) do
        if type(m) == 'table' then
          table.insert(lines, string.format('- %s: %s/%s pass', s(m.title or m.milestoneId), s(m.valPassCount, '0'), s(m.valCount, '?')))
        end
      end
      table.insert(lines, '')
      for _, v in ipairs(type(c.criteria) == 'table' and c.criteria or {}) do
        if type(v) == 'table' then
          table.insert(lines, string.format('- %s  %s  %s', s(v.id or v.criterionId), s(v.outcome, 'no evidence'), s(v.lastSummary, '')))
        end
      end
      local blockers = type(c.blockers) == 'table' and c.blockers or {}
      table.insert(lines, '')
      table.insert(lines, '### Blockers')
      if vim.tbl_isempty(blockers) then
        table.insert(lines, 'None.')
      end
      for _, b in ipairs(blockers) do
        if type(b) == 'table' then
          table.insert(lines, '- ' .. s(b.kind or b.type, '') .. ' ' .. s(b.criterionId, '') .. ' ' .. s(b.message or b.hint, ''))
        else
          table.insert(lines, '- ' .. s(b))
        end
      end
      local actions = type(c.nextActions) == 'table' and c.nextActions or {}
      if not vim.tbl_isempty(actions) then
        table.insert(lines, '')
        table.insert(lines, '### Next actions')
        for _, a in ipairs(actions) do
          if type(a) == 'table' then
            table.insert(lines, '- ' .. s(a.tool, '') .. (a.action and (' ' .. s(a.action)) or '') .. ': ' .. s(a.hint, ''))
          end
        end
      end
      table.insert(lines, '')
    end
  end
  -- A line must not hold a newline for nvim_buf_set_lines.
  for i, l in ipairs(lines) do
    lines[i] = (l:gsub('[\r\n]', ' '))
  end
  return lines
end

local function show_status(status)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, M.status_lines(status))
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'markdown'
  pcall(vim.api.nvim_buf_set_name, buf, 'charter://status')
end

--- Adds :CharterNext, :CharterSkip, :CharterFinish, :CharterRecord, :CharterStatus to a buffer.
function M.buffer_commands(bufnr)
  local function uri()
    return vim.uri_from_bufnr(bufnr)
  end
  local function interview(command)
    return function()
      M.execute(bufnr, command, { { uri = uri() } }, function(err, result)
        if not err then
          report_interview(result)
        end
      end)
    end
  end
  local cmd = vim.api.nvim_buf_create_user_command
  cmd(bufnr, 'CharterNext', interview('charter.interview.next'), { desc = 'Charter: ask the next interview question' })
  cmd(bufnr, 'CharterSkip', interview('charter.interview.skip'), { desc = 'Charter: skip the pending question' })
  cmd(bufnr, 'CharterFinish', interview('charter.interview.finish'), { desc = 'Charter: finish the interview' })
  cmd(bufnr, 'CharterStatus', function()
    M.execute(bufnr, 'charter.status', { { uri = uri() } }, function(err, result)
      if not err then
        show_status(result)
      end
    end)
  end, { desc = 'Charter: show status' })
  cmd(bufnr, 'CharterRecord', function(o)
    local outcome, rest = o.args:match('^%s*(%S+)%s*(.-)%s*$')
    if outcome ~= 'pass' and outcome ~= 'fail' and outcome ~= 'partial' then
      notify('usage: :CharterRecord {pass|fail|partial} {summary} [| because]', vim.log.levels.ERROR)
      return
    end
    -- "summary | because": the reason manual evidence needs.
    local summary, because = rest, nil
    local bar = rest:find('|', 1, true)
    if bar then
      summary, because = vim.trim(rest:sub(1, bar - 1)), vim.trim(rest:sub(bar + 1))
    end
    if summary == '' then
      notify('a summary is required', vim.log.levels.ERROR)
      return
    end
    local val = M.val_at_cursor(bufnr)
    if not val then
      notify('put the cursor in a ### VAL-… section of criteria.md', vim.log.levels.ERROR)
      return
    end
    local arg = { uri = uri(), criterionId = val, outcome = outcome, summary = summary }
    if because and because ~= '' then
      arg.because = because
    end
    M.execute(bufnr, 'charter.recordEvidence', { arg }, function(err, result)
      if not err then
        notify(string.format('recorded %s for %s%s', outcome, val, type(result) == 'table' and result.path and (' in ' .. result.path) or ''))
      end
    end)
  end, { nargs = '+', desc = 'Charter: record evidence for the VAL under the cursor: {pass|fail|partial} {summary} [| because]' })
end

local function on_attach(client, bufnr)
  M.buffer_commands(bufnr)
  if config.on_attach then
    config.on_attach(client, bufnr)
  end
end

--- Starts (or reuses) the client for a buffer's project and attaches it (the pre-0.11 path).
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  if not M.is_charter(name) then
    return nil
  end
  local root = M.root(name)
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) or is_stopped(vim.lsp.get_client_by_id(id)) then
    if vim.fn.executable(config.cmd[1]) ~= 1 then
      notify(config.cmd[1] .. ' is not executable; install it (go install github.com/charter-lsp/charter-lsp/cmd/charter-lsp@latest) or set cmd in setup()', vim.log.levels.ERROR)
      return nil
    end
    id = vim.lsp.start_client({
      name = 'charter',
      cmd = config.cmd,
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      init_options = config.settings,
      settings = { charter = config.settings },
      on_attach = on_attach,
    })
    if not id then
      notify('could not start ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- Neovim before 0.10 opens a CreateFile's path without creating its folders, so recording
-- evidence (a new run folder under work/<segment>/evidence/) fails there. Create the parent
-- folders first; later versions do this themselves.
local function create_parent_folders()
  if vim.fn.has('nvim-0.10') == 1 or M._creates_parents then
    return
  end
  M._creates_parents = true
  local util = vim.lsp.util
  local apply = util.apply_workspace_edit
  util.apply_workspace_edit = function(edit, ...)
    for _, change in ipairs(type(edit) == 'table' and edit.documentChanges or {}) do
      local target = (change.kind == 'create' and change.uri) or (change.kind == 'rename' and change.newUri)
      if target then
        vim.fn.mkdir(vim.fn.fnamemodify(vim.uri_to_fname(target), ':h'), 'p')
      end
    end
    return apply(edit, ...)
  end
end

--- Configures charter-lsp. Call from init.lua: require('charter').setup({ settings = { … } }).
function M.setup(opts)
  config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  if vim.fn.has('nvim-0.11') == 1 and not config.legacy then
    vim.lsp.config('charter', {
      cmd = config.cmd,
      settings = { charter = config.settings },
      init_options = config.settings,
      on_attach = on_attach,
    })
    vim.lsp.enable('charter')
    return
  end
  create_parent_folders()
  local group = vim.api.nvim_create_augroup('charter_lsp', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = { 'charter.md', 'Charter.md', 'CHARTER.md', '*/.pi/charters/*' },
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- Buffers that were already open when setup() ran.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and M.is_charter(vim.api.nvim_buf_get_name(b)) then
      M.attach(b)
    end
  end
end

return M
