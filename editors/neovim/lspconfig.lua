-- For nvim-lspconfig setups on Neovim older than 0.11 (or configs still using
-- `require('lspconfig').X.setup{}`): registers `dynalint` as a custom server.

local configs = require('lspconfig.configs')
local util = require('lspconfig.util')

if not configs.dynalint then
  configs.dynalint = {
    default_config = {
      cmd = { 'dynalint', 'lsp' },
      filetypes = { 'rust', 'toml' },
      -- A dynalint.toml's folder, else the repository's or the cargo project's; a
      -- loose Rust file is a project of its own (the model is inferred without a
      -- dynalint.toml).
      root_dir = util.root_pattern('dynalint.toml', '.git', 'Cargo.toml'),
      single_file_support = true,
    },
    docs = {
      description = 'dynalint: DynamoDB access-pattern linter for Rust (`dynalint lsp`).',
    },
  }
end

require('lspconfig').dynalint.setup({})
