-- charter-lsp for Neovim 0.11+ (vim.lsp.config / vim.lsp.enable).
-- Installed as a plugin (lazy.nvim, packer, or the repository on the runtimepath), this is
-- the runtimepath's lsp/charter.lua, so vim.lsp.enable('charter') finds it. It sits in the
-- repository's root lsp/ folder, beside the Go server package (Go ignores it), because
-- that is where Neovim looks. Which files are charter files comes from the plugin
-- (lua/charter/files.lua, generated from the server's own list).
-- Override anything with vim.lsp.config('charter', { … }).
local markers = { '.pi', '.charters', '.rp1', '.git' }

---@type vim.lsp.Config
return {
  cmd = { 'charter-lsp', 'serve' },
  -- Any filetype (charter.md, criteria.md, state.json, events.jsonl, .charter-lsp.jsonc):
  -- root_dir attaches the client to charter files only, rooted at the folder holding .pi/,
  -- .charters/, .rp1/ or .git (else the file's folder).
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    local ok, charter = pcall(require, 'charter')
    if ok and charter.is_charter(name) then
      on_dir(vim.fs.root(bufnr, markers) or vim.fs.dirname(name))
    end
  end,
  -- Section "charter": severity, sourceDirs, freshness, questionBudget, debounceMs.
  -- The interview agent is never a setting: put it in init_options, e.g.
  -- vim.lsp.config('charter', { init_options = { interviewAgent = '~/bin/charter-agent' } })
  -- (require('charter').setup({ agent = … }) does that).
  -- vim.empty_dict(): an empty Lua table would be sent as [], which is not settings.
  settings = { charter = vim.empty_dict() },
  before_init = function(params, config)
    params.initializationOptions = params.initializationOptions or (config.settings or {}).charter or vim.empty_dict()
  end,
  -- Verify runs' output and the server's questions (lua/charter/verify.lua).
  handlers = (function()
    local ok, charter = pcall(require, 'charter')
    return ok and charter.handlers() or nil
  end)(),
  on_attach = function(_, bufnr)
    local ok, charter = pcall(require, 'charter')
    if ok then
      charter.buffer_commands(bufnr)
    end
  end,
}
