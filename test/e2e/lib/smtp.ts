/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message it accepts, parsed
 * (mailparser), for n8n's Send Email node to deliver to. No TLS, no authentication: the SMTP
 * credential points at it with SSL/TLS off and STARTTLS disabled (smtpCredential).
 *
 * Exports (stable):
 *   startSmtpCapture({refuse?}): Promise<SmtpCapture>
 *     refuse: answer MAIL FROM with 550, as a server refusing to relay does (nothing is kept)
 *   SmtpCapture { port, messages: ParsedMail[], close() }   a message is in `messages` before the
 *     server answers 250 to its DATA, so once n8n's Send Email node finished it is there
 *   smtpCredential(id, port, name?): CredentialJson     n8n's SMTP credential for 127.0.0.1:port
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'net';
import { SMTPServer } from 'smtp-server';
import type { CredentialJson } from './workflow';

export interface SmtpCapture {
	port: number;
	messages: ParsedMail[];
	close(): Promise<void>;
}

export async function startSmtpCapture(o: { refuse?: boolean } = {}): Promise<SmtpCapture> {
	const messages: ParsedMail[] = [];
	const server = new SMTPServer({
		disabledCommands: ['STARTTLS', 'AUTH'],
		authOptional: true,
		logger: false,
		onMailFrom(_address, _session, callback) {
			if (!o.refuse) return callback();
			const refused = Object.assign(new Error('Relaying denied'), { responseCode: 550 });
			callback(refused);
		},
		onData(stream, _session, callback) {
			simpleParser(stream).then(
				(mail) => {
					messages.push(mail);
					callback();
				},
				(error: Error) => callback(error),
			);
		},
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const port = (server.server.address() as AddressInfo).port;
	server.server.unref();
	return {
		port,
		messages,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

export function smtpCredential(id: string, port: number, name = `SMTP ${id}`): CredentialJson {
	return {
		id,
		name,
		type: 'smtp',
		data: { user: '', password: '', host: '127.0.0.1', port, secure: false, disableStartTls: true, hostName: 'localhost' },
	};
}
