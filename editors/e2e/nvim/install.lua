-- The plugin as a plugin manager installs it, with no runtimepath step of the user's:
-- run.sh starts Neovim either with the repository as a start package (what packer does:
-- pack/packer/start/charter-lsp) or with the repository root prepended to the runtimepath
-- (what lazy.nvim does). CHARTER_INSTALL names which. Then:
--   * require('charter') resolves to the repository's lua/charter, and it is the only
--     top-level module, so lazy.nvim's `opts = {}` finds it as the plugin's main module;
--   * lsp/charter.lua is on the runtimepath, where vim.lsp.enable('charter') looks (0.11+),
--     and it returns a config for charter-lsp;
--   * Neovim 0.11+: vim.lsp.enable('charter') attaches the server to a charter file and
--     diagnostics arrive; older Neovim: setup() (its vim.lsp.start_client path) does.
-- Prints one ok / not ok line per check and "N passed, N failed".
local repo = assert(os.getenv('CHARTER_REPO'), 'CHARTER_REPO not set')
local ws = assert(os.getenv('CHARTER_WS'), 'CHARTER_WS not set')
local bin = assert(os.getenv('CHARTER_LSP'), 'CHARTER_LSP not set')
local mode = os.getenv('CHARTER_INSTALL') or '?'
local TIMEOUT = 10000

vim.cmd('filetype on')
vim.o.swapfile = false
_G.print = function(...) -- keep stdout for results (0.7 prints when it applies edits)
  io.stderr:write('# ' .. table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
end

local passed, failed, n = 0, 0, 0
local function check(name, fn)
  n = n + 1
  local ok, err = pcall(fn)
  if ok then
    passed = passed + 1
    io.stdout:write(string.format('ok %d - %s: %s\n', n, mode, name))
  else
    failed = failed + 1
    io.stdout:write(string.format('not ok %d - %s: %s: %s\n', n, mode, name, tostring(err):gsub('\n', '\n    ')))
  end
end

local function same_file(a, b)
  return vim.loop.fs_realpath(a) == vim.loop.fs_realpath(b)
end

check('require("charter") loads the repository\'s lua/charter', function()
  local files = vim.api.nvim_get_runtime_file('lua/charter/init.lua', true)
  assert(#files >= 1, 'lua/charter/init.lua is not on the runtimepath: ' .. vim.o.runtimepath)
  assert(same_file(files[1], repo .. '/lua/charter/init.lua'), 'require would load ' .. files[1])
  local charter = require('charter')
  assert(type(charter.setup) == 'function', 'require("charter") has no setup()')
end)

check('lua/ holds one top-level module, the main module lazy.nvim guesses', function()
  local mods = vim.fn.readdir(repo .. '/lua')
  assert(#mods == 1 and mods[1] == 'charter', 'lua/ holds ' .. vim.inspect(mods))
end)

check('lsp/charter.lua is on the runtimepath and configures charter-lsp', function()
  local files = vim.api.nvim_get_runtime_file('lsp/charter.lua', true)
  local found
  for _, f in ipairs(files) do
    found = found or same_file(f, repo .. '/lsp/charter.lua')
  end
  assert(found, 'lsp/charter.lua of the repository is not on the runtimepath: ' .. vim.inspect(files))
  local cfg = dofile(repo .. '/lsp/charter.lua')
  assert(type(cfg) == 'table', 'lsp/charter.lua returns ' .. type(cfg))
  assert(vim.deep_equal(cfg.cmd, { 'charter-lsp', 'serve' }), 'cmd ' .. vim.inspect(cfg.cmd))
  -- No filetypes: Neovim offers every buffer and root_dir accepts charter files only
  -- (charter.md, criteria.md, state.json, events.jsonl, .charter-lsp.jsonc). A list would
  -- have to name markdown, json and jsonc and still leave the choice to root_dir.
  assert(cfg.filetypes == nil, 'filetypes ' .. vim.inspect(cfg.filetypes) .. ': root_dir decides which files attach')
  assert(type(cfg.root_dir) == 'function', 'root_dir is not a function')
end)

local function open_and_wait(rel)
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/' .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  local got = vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  local names = {}
  for _, c in pairs(clients) do
    table.insert(names, c.name)
  end
  assert(vim.tbl_contains(names, 'charter'), 'no charter client on ' .. rel .. ' (clients: ' .. vim.inspect(names) .. ')')
  assert(got, 'no diagnostics on ' .. rel .. ' within ' .. TIMEOUT .. ' ms')
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    assert(d.source == 'charter', 'diagnostic from ' .. tostring(d.source))
  end
  return bufnr
end

if vim.fn.has('nvim-0.11') == 1 then
  check('vim.lsp.enable("charter") attaches and diagnoses charter.md', function()
    vim.lsp.config('charter', { cmd = { bin, 'serve' } }) -- the binary under test, not PATH's
    vim.lsp.enable('charter')
    open_and_wait('charter.md')
  end)
  check('vim.lsp.enable("charter") leaves other markdown alone', function()
    vim.fn.writefile({ '# Notes', '', 'TBD' }, ws .. '/notes.md')
    vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/notes.md'))
    vim.wait(500)
    assert(#vim.lsp.get_clients({ bufnr = 0, name = 'charter' }) == 0, 'charter attached to notes.md')
  end)
else
  io.stdout:write(string.format('# %s: vim.lsp.enable needs Neovim 0.11+, this is %s: the setup() path runs instead\n',
    mode, vim.split(vim.fn.execute('version'), '\n', { trimempty = true })[1] or '?'))
  -- What the server shows the user (window/showMessage), to check it has no complaint.
  local shown = {}
  local show = vim.lsp.handlers['window/showMessage']
  vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, cfg)
    table.insert(shown, result and result.message or '')
    return show(err, result, ctx, cfg)
  end
  check('setup() attaches and diagnoses charter.md', function()
    require('charter').setup({ cmd = { bin, 'serve' } })
    open_and_wait('charter.md')
  end)
  check('a plain setup() sends settings the server reads: an object, never []', function()
    vim.wait(500)
    for _, m in ipairs(shown) do
      assert(not m:find('settings are not a JSON object', 1, true), 'the server says: ' .. m)
    end
  end)  check('a missing server is named with an install way that works (not go install …@latest)', function()
    local notes, notify = {}, vim.notify
    vim.notify = function(msg)
      table.insert(notes, msg)
    end
    require('charter').setup({ cmd = { 'no-such-charter-lsp', 'serve' } })
    local dir = vim.fn.tempname() -- a project of its own: no client yet
    vim.fn.mkdir(dir, 'p')
    vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/charter.md'))
    vim.notify = notify
    local said = table.concat(notes, '\n')
    assert(said:find('no-such-charter-lsp is not executable', 1, true), 'said: ' .. said)
    assert(not said:find('@latest', 1, true), 'it recommends go install …@latest, which does not work: ' .. said)
    assert(said:find('go install ./cmd/charter-lsp', 1, true), 'it names no install way: ' .. said)
  end)
end

io.stdout:write(string.format('%d passed, %d failed\n', passed, failed))
vim.lsp.stop_client(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients())
vim.wait(3000, function()
  return #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) == 0
end, 50)
vim.cmd(failed > 0 and 'cquit 1' or 'qall!')
