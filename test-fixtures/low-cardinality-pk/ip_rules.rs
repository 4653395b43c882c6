// An IP rule repository that builds its items in its own `to_item` (not serde_dynamo's):
// `rule_type` is "allow" or "block" from a `match` on the rule's enum, so the index on it
// has two partition key values.
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const IP_RULES_TABLE: &str = "IpRules";

pub enum IpRuleType {
    Allow,
    Block,
}

pub struct IpRule {
    pub id: String,
    pub ip_pattern: String,
    pub rule_type: IpRuleType,
    pub description: Option<String>,
}

pub struct IpRuleRepo {
    client: Client,
}

impl IpRuleRepo {
    fn to_item(rule: &IpRule) -> HashMap<String, AttributeValue> {
        let rule_type = match rule.rule_type {
            IpRuleType::Allow => "allow",
            IpRuleType::Block => "block",
        };
        let mut item = HashMap::new();
        item.insert("id".to_string(), AttributeValue::S(rule.id.clone()));
        item.insert("ip_pattern".to_string(), AttributeValue::S(rule.ip_pattern.clone()));
        item.insert("rule_type".to_string(), AttributeValue::S(rule_type.to_string()));
        if let Some(ref description) = rule.description {
            item.insert("description".to_string(), AttributeValue::S(description.clone()));
        }
        item
    }

    pub async fn create(&self, rule: &IpRule) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(IP_RULES_TABLE)
            .set_item(Some(Self::to_item(rule)))
            .send()
            .await?;
        Ok(())
    }

    pub async fn update(&self, rule: &IpRule) -> Result<(), Error> {
        self.client
            .put_item()
            .table_name(IP_RULES_TABLE)
            .set_item(Some(Self::to_item(rule)))
            .send()
            .await?;
        Ok(())
    }
}
