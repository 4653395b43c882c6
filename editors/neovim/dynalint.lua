-- A copy-paste snippet for init.lua (Neovim 0.11+), equivalent to putting
-- lsp/dynalint.lua on the runtimepath.

vim.lsp.config('dynalint', {
  cmd = { 'dynalint', 'lsp' }, -- or { '/path/to/dynalint', 'lsp' }
  filetypes = { 'rust', 'toml' },
  root_dir = function(bufnr, on_dir)
    local root = vim.fs.root(bufnr, { 'dynalint.toml' })
    if root then
      on_dir(root)
    end
  end,
})
vim.lsp.enable('dynalint')
