use aws_sdk_s3::Client as S3Client;

pub async fn restore(client: &S3Client, key: &str) -> Result<(), Error> {
    client
        .restore_object()
        .bucket("archive")
        .key(key)
        .send()
        .await?;
    Ok(())
}
