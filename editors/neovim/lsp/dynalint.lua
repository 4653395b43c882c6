-- dynalint's language server for Neovim 0.11+ (`vim.lsp.config`).
--
-- On the runtimepath as `lsp/dynalint.lua`, this is picked up by
-- `vim.lsp.enable('dynalint')`; nvim-lspconfig users get the same through it.
-- Override any field with `vim.lsp.config('dynalint', { ... })`.

---@type vim.lsp.Config
return {
  cmd = { 'dynalint', 'lsp' },
  filetypes = { 'rust', 'toml' },
  -- Attach only inside a dynalint project: the nearest folder with a dynalint.toml.
  -- Without one the server is not started at all (on_dir is never called).
  root_dir = function(bufnr, on_dir)
    local root = vim.fs.root(bufnr, { 'dynalint.toml' })
    if root then
      on_dir(root)
    end
  end,
  -- Keep the server's own file watchers (dynalint.toml and .rs changes on disk).
  capabilities = {
    workspace = { didChangeWatchedFiles = { dynamicRegistration = true } },
  },
}
