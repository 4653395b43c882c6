-- A copy-paste snippet for init.lua (Neovim 0.11+), equivalent to putting
-- lsp/dynalint.lua on the runtimepath.

vim.lsp.config('dynalint', {
  cmd = { 'dynalint', 'lsp' }, -- or { '/path/to/dynalint', 'lsp' }
  filetypes = { 'rust', 'toml' },
  -- The project's folder: the nearest dynalint.toml above the file; without one the
  -- repository (.git), else the outermost Cargo.toml above it (a cargo workspace's
  -- root), else a Rust file's own folder. The server finds each file's project
  -- itself (the model is inferred from templates and code when there is no
  -- dynalint.toml); this only names the workspace it is started for.
  root_dir = function(bufnr, on_dir)
    local root = vim.fs.root(bufnr, { 'dynalint.toml' }) or vim.fs.root(bufnr, { '.git' })
    if not root then
      local manifests = vim.fs.find('Cargo.toml', {
        upward = true,
        path = vim.fs.dirname(vim.api.nvim_buf_get_name(bufnr)),
        limit = math.huge,
      })
      if #manifests > 0 then
        root = vim.fs.dirname(manifests[#manifests])
      end
    end
    if not root and vim.bo[bufnr].filetype == 'rust' then
      root = vim.fs.dirname(vim.api.nvim_buf_get_name(bufnr))
    end
    if root then
      on_dir(root)
    end
  end,
})
vim.lsp.enable('dynalint')
