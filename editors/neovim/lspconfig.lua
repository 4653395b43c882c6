-- For nvim-lspconfig setups on Neovim older than 0.11 (or configs still using
-- `require('lspconfig').X.setup{}`): registers `dynalint` as a custom server.

local configs = require('lspconfig.configs')
local util = require('lspconfig.util')

if not configs.dynalint then
  configs.dynalint = {
    default_config = {
      cmd = { 'dynalint', 'lsp' },
      filetypes = { 'rust', 'toml' },
      root_dir = util.root_pattern('dynalint.toml'),
      single_file_support = false,
    },
    docs = {
      description = 'dynalint: DynamoDB access-pattern linter for Rust (`dynalint lsp`).',
    },
  }
end

require('lspconfig').dynalint.setup({})
