-- Running a criterion's check from Neovim: :CharterVerify asks the server to run the command
-- of the criterion under the cursor (the server's own "Run `…`" code action says which, and
-- carries the command text the server checks); the server shows the command and asks
-- (window/showMessageRequest, answered here with vim.ui.select) before running anything,
-- streams the output (charter/verifyOutput, shown in the charter://verify buffer) and records
-- the result. :CharterVerifyCancel stops the run under way. :CharterQuickfix puts the
-- completion blockers and stale criteria of every charter in the quickfix list.
local M = {}

-- The server's command ids (charter/commands.lua is generated from the server's feature.Commands).
local commands = require('charter.commands')

-- The run under way (its id, from the output notifications), for :CharterVerifyCancel.
M.current = nil
-- The output buffer.
local out_buf

local function notify(msg, level)
  vim.notify('charter: ' .. msg, level or vim.log.levels.INFO)
end

--- The charter://verify buffer, shown in a split when hidden.
local function output_buffer()
  if not (out_buf and vim.api.nvim_buf_is_valid(out_buf)) then
    out_buf = vim.api.nvim_create_buf(false, true)
    vim.bo[out_buf].bufhidden = 'hide'
    pcall(vim.api.nvim_buf_set_name, out_buf, 'charter://verify')
  end
  if vim.fn.bufwinid(out_buf) == -1 then
    local win = vim.api.nvim_get_current_win()
    vim.cmd('botright 12split')
    vim.api.nvim_win_set_buf(0, out_buf)
    vim.api.nvim_set_current_win(win)
  end
  return out_buf
end

--- Appends text (which may end in the middle of a line) to the output buffer.
local function append(text)
  local buf = output_buffer()
  local lines = vim.split(text, '\n', { plain = true })
  local last = vim.api.nvim_buf_line_count(buf)
  local tail = vim.api.nvim_buf_get_lines(buf, last - 1, last, false)[1] or ''
  lines[1] = tail .. lines[1]
  vim.api.nvim_buf_set_lines(buf, last - 1, last, false, lines)
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then
    vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
  end
end

--- The handlers the charter client needs for verify runs.
function M.handlers()
  return {
    ['charter/verifyOutput'] = function(_, params)
      if type(params) ~= 'table' or type(params.text) ~= 'string' then
        return
      end
      if params.run ~= M.current and not params.done then
        M.current = params.run
      end
      append(params.text)
      if params.done then
        if M.current == params.run then
          M.current = nil
        end
        -- A .charters/ criterion open here got its Status line as an edit: save it, as
        -- recording is an explicit action.
        local b = params.recorded and vim.fn.bufnr(params.recorded) or -1
        if b ~= -1 and vim.bo[b].modified then
          vim.api.nvim_buf_call(b, function()
            vim.cmd('silent write')
          end)
        end
      end
    end,
    -- The server's question, with vim.ui.select (the message shows the command verbatim).
    ['window/showMessageRequest'] = function(_, params)
      local titles = {}
      for _, a in ipairs(params.actions or {}) do
        table.insert(titles, a.title)
      end
      local picked, answered = nil, false
      vim.ui.select(titles, { prompt = params.message }, function(choice)
        picked, answered = choice, true
      end)
      vim.wait(24 * 3600 * 1000, function()
        return answered
      end, 50)
      if picked then
        return { title = picked }
      end
      return vim.NIL
    end,
  }
end

--- Runs the command of the criterion under the cursor of bufnr, once the user confirms it.
function M.verify(bufnr)
  local charter = require('charter')
  local client = charter.client(bufnr)
  if not client then
    notify('no charter-lsp client for this buffer', vim.log.levels.ERROR)
    return
  end
  local pos = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = pos, ['end'] = pos },
    context = { diagnostics = {}, only = { commands.kinds.verify } },
  }
  charter.request(client, 'textDocument/codeAction', params, function(err, actions)
    if err then
      notify('textDocument/codeAction: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    for _, a in ipairs(actions or {}) do
      local cmd = type(a.command) == 'table' and a.command or a
      if cmd.command == commands.verify then
        charter.execute(bufnr, cmd.command, cmd.arguments, function(e, answer)
          if not e and type(answer) == 'table' and answer.declined then
            notify('not run')
          end
        end)
        return
      end
    end
    notify('no command to run here: put the cursor in a criterion whose verifier is a command (Verifier: command and Command:, or a .charters/ criterion\'s Command: line), in a trusted workspace', vim.log.levels.WARN)
  end, bufnr)
end

--- Stops the run under way (the server kills its process group and records nothing).
function M.cancel(bufnr)
  local client = require('charter').client(bufnr)
  if not (client and M.current) then
    notify('no run under way')
    return
  end
  if vim.fn.has('nvim-0.11') == 1 then
    client:notify('window/workDoneProgress/cancel', { token = M.current })
  else
    client.notify('window/workDoneProgress/cancel', { token = M.current })
  end
end

--- The quickfix items of a charter.status answer: completion blockers and stale criteria.
function M.quickfix_items(report)
  local items = {}
  for _, c in ipairs(type(report) == 'table' and report.charters or {}) do
    if c.format == 'charters' then
      local file = c.dir .. '/charter.md'
      for _, cr in ipairs(c.criteria or {}) do
        if cr.stale then
          table.insert(items, { filename = file, lnum = cr.line, text = cr.id .. ' is stale: ' .. cr.status .. ' ' .. cr.note, type = 'W' })
        end
      end
      for _, b in ipairs(c.blockers or {}) do
        table.insert(items, { filename = file, lnum = 1, text = c.charterId .. ': ' .. b, type = 'E' })
      end
    else
      local where = {}
      for _, cr in ipairs(c.criteria or {}) do
        where[cr.criterionId] = where[cr.criterionId] or cr
        if cr.stale then
          table.insert(items, { filename = c.dir .. '/' .. cr.file, lnum = cr.line, text = cr.criterionId .. ' is stale: ' .. tostring(cr.outcome), type = 'W' })
        end
      end
      for _, b in ipairs((c.details or {}).blockingForComplete or {}) do
        local cr = b.criterionId and where[b.criterionId]
        table.insert(items, {
          filename = cr and (c.dir .. '/' .. cr.file) or (c.dir .. '/criteria.md'),
          lnum = cr and cr.line or 1,
          text = b.reason .. ': ' .. b.message,
          type = 'E',
        })
      end
    end
  end
  return items
end

--- Fills the quickfix list with every charter's blockers and stale criteria.
function M.quickfix(bufnr, done)
  require('charter').execute(bufnr, commands.status, {}, function(err, report)
    if err then
      return
    end
    local items = M.quickfix_items(report)
    vim.fn.setqflist({}, ' ', { title = 'Charter blockers and stale criteria', items = items })
    notify(#items .. ' blockers and stale criteria in the quickfix list')
    if done then
      done(items)
    end
  end)
end

--- Adds :CharterVerify, :CharterVerifyCancel and :CharterQuickfix to a buffer.
function M.buffer_commands(bufnr)
  local cmd = vim.api.nvim_buf_create_user_command
  cmd(bufnr, 'CharterVerify', function()
    M.verify(bufnr)
  end, { desc = "Charter: run the command of the criterion under the cursor (after you confirm it) and record it" })
  cmd(bufnr, 'CharterVerifyCancel', function()
    M.cancel(bufnr)
  end, { desc = 'Charter: stop the run under way; nothing is recorded' })
  cmd(bufnr, 'CharterQuickfix', function()
    M.quickfix(bufnr)
  end, { desc = 'Charter: completion blockers and stale criteria in the quickfix list' })
end

return M
