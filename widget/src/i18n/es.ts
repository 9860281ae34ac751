export default "Tus opciones de privacidad|{c} quiere usar tus datos como se describe abajo. Puedes cambiar tus opciones cuando quieras.|" +
  "Política de privacidad|Condiciones|Política de cookies|Aceptar todo|Rechazar todo|Guardar opciones|Cerrar|" +
  "Detalles|Datos utilizados|Responsables|Encargados|Destinatarios|Tu consentimiento|Contrato|" +
  "Interés legítimo|Obligación legal|Oponerme|Oposición enviada|Nuevo|" +
  "Tu navegador envía Global Privacy Control, así que los consentimientos empiezan desactivados.|" +
  "El servicio de privacidad no está disponible, así que no se guardó nada.|Reintentar|Tus opciones se han guardado.|Este sitio|" +
  "{c} quiere usar tus datos, con tu consentimiento, para los fines que puedes revisar en Personalizar. Puedes cambiar tus opciones cuando quieras.|" +
  "{c} usa tus datos como se describe en Tus opciones de privacidad, lo que puede incluir compartirlos con socios. Puedes excluirte cuando quieras.|" +
  "{c} usa tus datos como se describe en Tus opciones de privacidad, donde también puedes oponerte.|Personalizar|" +
  "Tu navegador envía Global Privacy Control, así que quedaste excluido de la venta y el intercambio de tus datos.|OK|" +
  "Tu elección se guarda en este dispositivo y se enviará cuando el servicio de privacidad responda.|Descargar recibo";
