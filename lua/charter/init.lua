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
  -- The interview agent: a command line the server runs as rp1's charter interviewer (an LLM
  -- behind rp1's JSON contract) instead of its built-in one, e.g. '~/bin/charter-agent', and the
  -- seconds it may take per answer. Sent in initializationOptions only: this is your own
  -- configuration, and the server takes the agent from nowhere else (never from `settings`,
  -- which answer workspace/configuration, nor from a project's .charter-lsp.jsonc).
  agent = nil,
  agent_timeout = nil,
  -- Called after the client attaches to a buffer, like any on_attach.
  on_attach = nil,
  -- Force the vim.lsp.start_client path even on 0.11+ (the headless tests use it).
  legacy = false,
}

M.root_markers = { '.pi', '.charters', '.rp1', '.git' }

-- The outcomes evidence records, from the server's own list (charter/vocabulary.lua is
-- generated from pi.Outcomes), as :CharterRecord's usage writes them.
local outcomes = require('charter.vocabulary').outcomes
local outcome_usage = '{' .. table.concat(outcomes, '|') .. '}'

local uv = vim.loop or vim.uv
-- The server's command ids (charter/commands.lua is generated from the server's feature.Commands).
local commands = require('charter.commands')
local config = vim.deepcopy(M.defaults)
local clients = {} -- root dir -> client id (legacy path)

-- The charter files by path, from the server's own list (charter/files.lua is generated from
-- analysis.FileGlobs and tested against the server's classifier).
local file_patterns
local function patterns()
  if not file_patterns then
    file_patterns = {}
    for _, f in ipairs(require('charter.files')) do
      table.insert(file_patterns, vim.regex(f.regex))
    end
  end
  return file_patterns
end

--- True when the server checks a file of this path: any charter.md, the files of a
--- .pi/charters/<id>/ or .charters/<id>/ charter, the project configuration.
function M.is_charter(path)
  if not path or path == '' then
    return false
  end
  path = path:gsub('\\', '/')
  for _, re in ipairs(patterns()) do
    if re:match_str(path) then
      return true
    end
  end
  return false
end

--- The project root of a file: the nearest folder above it holding .pi/, .charters/, .rp1/
--- or .git, else the file's own folder.
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

-- The settings as a JSON object: an empty Lua table encodes as [] (Neovim 0.7's encoder),
-- which the server refuses ("settings are not a JSON object"); vim.empty_dict() is {}.
local function object(t)
  if type(t) ~= 'table' or next(t) == nil then
    return vim.empty_dict()
  end
  return t
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

--- Asks the server which VAL the cursor of a register buffer is in (charter.valAt), and calls
--- done(val) with its answer: { criterionId, title, outcome, becauseRequired, dir, … } or nil.
function M.val_at_cursor(bufnr, done)
  local client = M.client(bufnr)
  if not client then
    notify('no charter-lsp client for this buffer', vim.log.levels.ERROR)
    return
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  M.execute(bufnr, commands.valAt, { { uri = params.textDocument.uri, position = params.position } }, function(err, result)
    if not err then
      done(type(result) == 'table' and result or nil)
    end
  end)
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

--- Shows the server's rendered status (charter.status with render "markdown") in a scratch
--- buffer; returns the buffer.
function M.show_status(result)
  local markdown = type(result) == 'table' and result.markdown
  if type(markdown) ~= 'string' then
    markdown = '# Charter status\n\nThe server sent no rendered status; update charter-lsp.'
  end
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(markdown:gsub('\n$', ''), '\n', { plain = true }))
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = 'markdown'
  pcall(vim.api.nvim_buf_set_name, buf, 'charter://status')
  return buf
end

--- initializationOptions: the settings, and the interview agent (only ever sent here).
function M.init_options()
  local opts = vim.deepcopy(config.settings or {})
  if config.agent and config.agent ~= '' then
    opts.interviewAgent = config.agent
  end
  if config.agent_timeout then
    opts.interviewAgentTimeout = config.agent_timeout
  end
  if next(opts) == nil then
    return vim.empty_dict() -- an object, not [] (which the server would refuse)
  end
  return opts
end

--- The interview as a conversation (:CharterInterview): each prompt is the server's turn
--- (charter.interview.turn): its title ("Q2 of 5 · Target Users") and question in
--- vim.ui.input; Enter on an answer sends it, Enter on nothing offers the server's other
--- choices (Skip, Finish) in vim.ui.select; Esc (or Stop) ends the conversation and leaves
--- the charter as it is. Every word and choice is the server's.
function M.converse(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local run
  local function step(turn)
    if type(turn) ~= 'table' then
      return
    end
    if turn.done then
      if type(turn.message) == 'string' then
        local level = ({ error = vim.log.levels.ERROR, warning = vim.log.levels.WARN })[turn.level] or vim.log.levels.INFO
        notify(turn.message, level)
      end
      return
    end
    local title = turn.title or 'Interview'
    vim.ui.input({ prompt = title .. ': ' .. (turn.question or '') .. ' ' }, function(text)
      if text == nil then
        return -- Esc: the charter stays as it is
      end
      if text:match('%S') and type(turn.answer) == 'table' then
        local args = vim.deepcopy(turn.answer.arguments)
        args[1].answer = text
        run(turn.answer.command, args)
        return
      end
      local choices = vim.deepcopy(turn.buttons or {})
      table.insert(choices, { label = 'Stop', tooltip = 'end the interview here; the charter stays as it is' })
      vim.ui.select(choices, {
        prompt = title .. ': ',
        format_item = function(b)
          return b.label .. ' — ' .. b.tooltip
        end,
      }, function(b)
        if b and b.command then
          run(b.command, b.arguments)
        end
      end)
    end)
  end
  run = function(command, args)
    M.execute(bufnr, command, args, function(err, result)
      if not err then
        vim.schedule(function()
          step(result)
        end)
      end
    end)
  end
  run(commands.interviewTurn, { { uri = vim.uri_from_bufnr(bufnr) } })
end

--- Adds :CharterInterview, :CharterNext, :CharterSkip, :CharterFinish, :CharterRecord,
--- :CharterStatus to a buffer.
function M.buffer_commands(bufnr)
  local function uri()
    return vim.uri_from_bufnr(bufnr)
  end
  -- An rp1 skeleton charter's step (charter.interview.next there): the server showed the
  -- question and selected the region's _TBD_; ask for the answer here too, and write it
  -- into the region (an empty answer: type it in the buffer instead).
  local function answer_region(step)
    vim.ui.input({ prompt = step.asked .. ': ' .. step.question .. ' ' }, function(answer)
      if not answer or not answer:match('%S') then
        return
      end
      M.execute(bufnr, commands.interviewRegion, { { uri = uri(), region = step.asked, answer = answer } }, function(err, result)
        if err or type(result) ~= 'table' then
          return
        end
        if result.next then
          notify('wrote ' .. tostring(result.answered) .. '; next: ' .. result.next .. ' (:CharterNext)')
        else
          notify('every region is filled; **Status** is now ' .. tostring(result.status))
        end
      end)
    end)
  end
  local function interview(command)
    return function()
      M.execute(bufnr, command, { { uri = uri() } }, function(err, result)
        if err then
          return
        end
        if type(result) == 'table' and type(result.gaps) == 'table' and result.asked and result.question then
          answer_region(result)
        else
          report_interview(result)
        end
      end)
    end
  end
  local cmd = vim.api.nvim_buf_create_user_command
  cmd(bufnr, 'CharterInterview', function()
    M.converse(bufnr)
  end, { desc = 'Charter: the interview as a conversation (prompts)' })
  cmd(bufnr, 'CharterNext', interview(commands.interviewNext), { desc = 'Charter: ask the next interview question' })
  cmd(bufnr, 'CharterSkip', interview(commands.interviewSkip), { desc = 'Charter: skip the pending question' })
  cmd(bufnr, 'CharterFinish', interview(commands.interviewFinish), { desc = 'Charter: finish the interview' })
  cmd(bufnr, 'CharterStatus', function()
    M.execute(bufnr, commands.status, { { uri = uri(), render = 'markdown' } }, function(err, result)
      if not err then
        M.show_status(result)
      end
    end)
  end, { desc = 'Charter: show status' })
  require('charter.verify').buffer_commands(bufnr)
  cmd(bufnr, 'CharterRecord', function(o)
    local outcome, rest = o.args:match('^%s*(%S+)%s*(.-)%s*$')
    if not vim.tbl_contains(outcomes, outcome) then
      notify('usage: :CharterRecord ' .. outcome_usage .. ' {summary} [| because]', vim.log.levels.ERROR)
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
    M.val_at_cursor(bufnr, function(val)
      if not val then
        notify('put the cursor in a VAL (its ### VAL-… heading or body) of criteria.md', vim.log.levels.ERROR)
        return
      end
      local function record(reason)
        local arg = { uri = uri(), criterionId = val.criterionId, outcome = outcome, summary = summary }
        if reason and reason ~= '' then
          arg.because = reason
        end
        M.execute(bufnr, commands.recordEvidence, { arg }, function(err, result)
          if not err then
            notify(string.format('recorded %s for %s%s', outcome, val.criterionId, type(result) == 'table' and result.path and (' in ' .. result.path) or ''))
          end
        end)
      end
      if not val.becauseRequired or (because and because ~= '') then
        record(because)
        return
      end
      -- The server says this VAL's evidence is a person's judgement: it needs a reason.
      vim.ui.input({ prompt = val.criterionId .. ' is verified by a person; why is this evidence enough? ' }, function(reason)
        reason = reason and vim.trim(reason) or ''
        if reason == '' then
          notify('not recorded: manual evidence for ' .. val.criterionId .. ' needs a reason (:CharterRecord ' .. outcome .. ' {summary} | {because})', vim.log.levels.ERROR)
          return
        end
        record(reason)
      end)
    end)
  end, { nargs = '+', desc = 'Charter: record evidence for the VAL under the cursor: ' .. outcome_usage .. ' {summary} [| because]' })
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
      notify(config.cmd[1] .. ' is not executable: put charter-lsp on PATH (from a clone: go install ./cmd/charter-lsp, or make build and use bin/charter-lsp; or a release archive) or set cmd in setup()', vim.log.levels.ERROR)
      return nil
    end
    id = vim.lsp.start_client({
      name = 'charter',
      cmd = config.cmd,
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      init_options = M.init_options(),
      settings = { charter = object(config.settings) },
      handlers = M.handlers(),
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
-- evidence (a new run folder under work/<segment>/evidence/) fails there. The charter client's
-- own workspace/applyEdit handler creates the parent folders first, then hands the edit to
-- Neovim's handler; other clients and vim.lsp.util are left as they are.
local function apply_edit_creating_folders(err, result, ctx, cfg)
  local edit = type(result) == 'table' and result.edit or nil
  for _, change in ipairs(type(edit) == 'table' and edit.documentChanges or {}) do
    local target = (change.kind == 'create' and change.uri) or (change.kind == 'rename' and change.newUri)
    if target then
      vim.fn.mkdir(vim.fn.fnamemodify(vim.uri_to_fname(target), ':h'), 'p')
    end
  end
  return vim.lsp.handlers['workspace/applyEdit'](err, result, ctx, cfg)
end

--- The handlers the charter client needs on this Neovim: verify runs' (charter/verify.lua),
--- and before 0.10 workspace/applyEdit's.
function M.handlers()
  local handlers = require('charter.verify').handlers()
  if vim.fn.has('nvim-0.10') == 0 then
    handlers['workspace/applyEdit'] = apply_edit_creating_folders
  end
  return handlers
end

--- Configures charter-lsp. Call from init.lua: require('charter').setup({ settings = { … } }).
function M.setup(opts)
  config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  if vim.fn.has('nvim-0.11') == 1 and not config.legacy then
    vim.lsp.config('charter', {
      cmd = config.cmd,
      settings = { charter = object(config.settings) },
      init_options = M.init_options(),
      handlers = M.handlers(),
      on_attach = on_attach,
    })
    vim.lsp.enable('charter')
    return
  end
  local group = vim.api.nvim_create_augroup('charter_lsp', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = '*', -- M.attach keeps to charter files (M.is_charter)
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
