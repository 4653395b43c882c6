pub mod dynamo;
pub mod invitations;
