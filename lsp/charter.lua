-- charter-lsp for Neovim 0.11+ (vim.lsp.config / vim.lsp.enable).
-- Installed as a plugin (lazy.nvim, packer, or the repository on the runtimepath), this is
-- the runtimepath's lsp/charter.lua, so vim.lsp.enable('charter') finds it. It sits in the
-- repository's root lsp/ folder, beside the Go server package (Go ignores it), because
-- that is where Neovim looks. Or copy this file alone to ~/.config/nvim/lsp/charter.lua.
-- Override anything with vim.lsp.config('charter', { … }).
local markers = { '.pi', '.rp1', '.git' }

-- Charter files only: any charter.md, and criteria.md, REPORT.md and JSON sidecars in .pi/charters/.
local function is_charter(path)
  path = (path or ''):gsub('\\', '/')
  local base = path:match('([^/]+)$') or ''
  if base:lower() == 'charter.md' then
    return true
  end
  return path:find('/%.pi/charters/') ~= nil and (base == 'criteria.md' or base == 'REPORT.md' or base:match('%.json$') ~= nil)
end

---@type vim.lsp.Config
return {
  cmd = { 'charter-lsp', 'serve' },
  filetypes = { 'markdown', 'json' },
  -- Attach filter: the client starts only for charter files, rooted at the folder holding
  -- .pi/, .rp1/ or .git (else the file's folder).
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if is_charter(name) then
      on_dir(vim.fs.root(bufnr, markers) or vim.fs.dirname(name))
    end
  end,
  -- Section "charter": severity, sourceDirs, freshness, questionBudget, debounceMs.
  settings = { charter = {} },
  before_init = function(params, config)
    params.initializationOptions = params.initializationOptions or (config.settings or {}).charter
  end,
  on_attach = function(_, bufnr)
    local ok, charter = pcall(require, 'charter')
    if ok then
      charter.buffer_commands(bufnr)
    end
  end,
}
