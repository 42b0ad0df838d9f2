package credential

import (
	"testing"
)

// TestKeyNames: key names that hold credentials, from the rule
// sets of well-known secret scanners, are recognised as words of the name
// (camelCase, snake_case, kebab-case, dotted), whatever follows the key.
//
// Sources:
//   - gitleaks, rule generic-api-key (cmd/generate/config/rules/generic.go,
//     GenericCredential): keywords key, api, token, secret, client, passwd,
//     password, auth, access; its true positives client_secret.
//   - Yelp detect-secrets, KeywordDetector (detect_secrets/plugins/keyword.py,
//     DENYLIST): apikey, api_key, appkey, app_key, authkey, auth_key,
//     servicekey, service_key, applicationkey, application_key, accountkey,
//     account_key, dbkey, db_key, databasekey, database_key, clientkey,
//     client_key, aws_secret_access_key, db_pass, password, passwd, pass, pwd,
//     private_key, privatekey, priv_key, privkey, secret, secrete, secreto,
//     keypass, token, contrasena, contraseña.
//   - The key names of the credentials siteforge's inputs carry: a
//     kubeconfig's token and client-key-data, a registry auth file's auths
//     and auth (containers-auth.json(5)), a Secret's .dockerconfigjson,
//     tls.key and ssh-privatekey (Kubernetes "Secrets", types
//     kubernetes.io/dockerconfigjson, tls, ssh-auth), AWS's
//     aws_secret_access_key / AWS_SECRET_ACCESS_KEY (credentials file and
//     environment) and secretAccessKey (the SDKs), Azure's clientSecret.
func TestKeyNames(t *testing.T) {
	credentials := []string{
		// gitleaks generic-api-key keywords and samples
		"token", "secret", "passwd", "password", "auth", "client_secret", "api_key", "access_key", "accessToken",
		// detect-secrets KeywordDetector DENYLIST
		"apikey", "appkey", "app_key", "authkey", "auth_key", "servicekey", "service_key", "applicationkey",
		"application_key", "accountkey", "account_key", "dbkey", "db_key", "databasekey", "database_key",
		"clientkey", "client_key", "aws_secret_access_key", "db_pass", "pass", "pwd", "private_key",
		"privatekey", "priv_key", "privkey", "secrete", "secreto", "keypass", "contrasena", "contraseña",
		// the same in other cases
		"AWS_SECRET_ACCESS_KEY", "secretAccessKey", "SecretAccessKey", "APIKey", "apiKey", "X-Api-Key",
		"secret_key", "secretKey", "privateKey", "PRIVATE_KEY", "clientSecret", "AZURE_CLIENT_SECRET",
		"passphrase", "keyPassphrase", "ssh_passphrase", "dbPassword", "DB_PASSWORD", "adminPassword",
		"bootstrapToken", "authToken", "identitytoken", "refresh-token", "bearer",
		// what siteforge's inputs carry
		"client-key-data", "auths", ".dockerconfigjson", "tls.key", "ssh-privatekey", "credentials",
		"credentialsSecret", "pullSecret", "htpasswd", "storageAccountKey", "signing_key", "encryptionKey",
	}
	for _, k := range credentials {
		if !credentialKey(k) {
			t.Errorf("credentialKey(%q) = false, want true", k)
		}
	}
	notCredentials := []string{
		"key", "keys", "name", "kind", "apiVersion", "sshKey", "publicKey", "authorizedKeys", "primaryKey",
		"keyring", "monkey", "passthrough", "bypass", "compass", "accessModes", "client_id", "clientCertificate",
		"certificate-authority-data", "tokenizer", "path", "mode", "contents", "source", "machineConfigs",
	}
	for _, k := range notCredentials {
		if credentialKey(k) {
			t.Errorf("credentialKey(%q) = true, want false", k)
		}
	}
}
